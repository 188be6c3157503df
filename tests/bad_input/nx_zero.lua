-- expect-exit: 1
-- expect-message: grid.nx must be an integer between 2 and 65536 (got 0)
-- Too few cells.
local sim = flow.simulation {
  grid = { nx = 0, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
