-- expect-exit: 1
-- expect-message: boundaries.left: T needs heat transport: give fluid.kappa
-- A temperature condition in a case without heat transport.
flow.simulation {
  model = "psi_omega", grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall { T = flow.dirichlet(1) }, right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
}
