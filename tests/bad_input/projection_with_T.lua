-- expect-exit: 1
-- expect-message: boundaries.left: T (temperature) is not yet available in the projection model
-- The projection model has no temperature.
flow.simulation {
  grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall { T = flow.dirichlet(1) }, right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
}
