-- expect-exit: 1
-- expect-message: grid.nx must be an integer (got 1.5)
-- A cell count that is not a whole number.
local sim = flow.simulation {
  grid = { nx = 1.5, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
