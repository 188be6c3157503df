-- expect-exit: 1
-- expect-message: kernels.diffusion = 'implicit' (the seed's IMEX scheme) is not yet available
-- Implicit diffusion is not implemented yet.
flow.simulation {
  model = "psi_omega", grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  kernels = { diffusion = "implicit" },
}
