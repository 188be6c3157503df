-- expect-exit: 1
-- expect-message: boundaries.right is missing
-- Every side needs a boundary condition.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}
