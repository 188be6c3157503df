-- expect-exit: 1
-- expect-message: fluid.nu must be > 0 (got 0)
-- The viscosity must be positive.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
