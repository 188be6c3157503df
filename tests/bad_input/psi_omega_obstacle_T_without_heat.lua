-- expect-exit: 1
-- expect-message: obstacles[1].T needs heat transport
-- A heated body in a case without a temperature field.
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  obstacles = { { flow.circle { x = 0.5, y = 0.5, r = 0.2 }, T = flow.dirichlet(1) } },
}
