-- expect-exit: 1
-- expect-message: flow.wall.T must be flow.dirichlet(value or function(s, t)) or flow.neumann
-- A bare number where a condition is expected.
flow.simulation {
  model = "psi_omega", grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1, kappa = 0.1 },
  boundaries = { left = flow.wall { T = 1 }, right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
}
