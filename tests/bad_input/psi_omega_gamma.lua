-- expect-exit: 1
-- expect-message: kernels.gamma
-- gamma is the projection model's donor-cell weight.
flow.simulation {
  model = "psi_omega", grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  kernels = { gamma = 0.5 },
}
