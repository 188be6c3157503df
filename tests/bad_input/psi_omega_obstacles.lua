-- expect-exit: 1
-- expect-message: obstacles are not yet available in the psi_omega model
-- Obstacles need per-body stream-function constants: not yet.
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.2 } },
}
