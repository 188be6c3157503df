-- expect-exit: 1
-- expect-message: the psi_omega model's bodies are at rest
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.2, omega = 1 } },
}
