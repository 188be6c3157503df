-- expect-exit: 1
-- expect-message: boundaries.top: model = 'lbm_swe' has no 'moving wall' condition
-- A moving lid is a projection-model condition; the shallow-water model names what it has.
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 8, ny = 8, lx = 8, ly = 8 },
  fluid = { nu = 0.1 },
  initial = { h = 1.0 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = 1 },
}
sim:run()
