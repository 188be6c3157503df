-- expect-exit: 1
-- expect-message: periodic in x needs an even grid.nx
-- Red-black ordering needs an even cell count in a periodic direction.
local sim = flow.simulation {
  grid = { nx = 9, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.periodic(), right = flow.periodic(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
