-- expect-exit: 1
-- expect-message: kernels.momentum = 'central_tile_open' needs central advection, the CUDA backend, no obstacles, on one rank
-- expect-message: projection, cpu, double
-- The shared-memory tile variants (issue 12) exist on the CUDA backend only; forcing
-- one on the CPU says what it needs and what the case is.
flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  kernels = { momentum = "central_tile_open", pressure = "rbsor_tile_open" },
}
