-- expect-exit: 1
-- expect-message: kernels.transport = 'upwind' needs advection = 'upwind'
-- A compiled-in transport variant must match the case's convection scheme.
flow.simulation {
  model = "psi_omega",
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  kernels = { advection = "central", transport = "upwind" },
}
