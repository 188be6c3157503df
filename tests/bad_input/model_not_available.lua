-- expect-exit: 1
-- expect-message: model = 'lbm' is not yet available; available: '
-- expect-message: 'fractional_step'
-- expect-message: 'lbm_swe'
-- expect-message: 'projection'
-- expect-message: 'psi_omega'
-- Models from the roadmap are named as not available yet.
local sim = flow.simulation {
  model = "lbm",
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
