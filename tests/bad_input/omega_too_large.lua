-- expect-exit: 1
-- expect-message: pressure.omega must be between 0 and 2, both excluded (got 2.5)
-- SOR over-relaxation outside (0, 2).
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  pressure = { omega = 2.5 },
}
