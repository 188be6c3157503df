-- expect-exit: 1
-- expect-message: an outflow carries T out with zero normal gradient
-- The outflow takes no temperature condition.
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 8, lx = 2 }, fluid = { nu = 0.1, kappa = 0.1 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow { T = flow.dirichlet(0) }, top = flow.wall(), bottom = flow.wall() },
}
