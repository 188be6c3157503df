-- expect-exit: 1
-- expect-message: kernels.pressure = 'rbsor_fused' needs the rbsor solver, the CUDA backend and no periodic side
-- expect-message: projection, cpu, double
-- The fused red-black sweep exists on the CUDA backend only; forcing it on the CPU
-- says what it needs and what the case is.
flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  kernels = { pressure = "rbsor_fused" },
}
