-- expect-exit: 1
-- expect-message: initial.u: does not apply to the psi_omega model
-- psi_omega starts at rest.
flow.simulation {
  model = "psi_omega", grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  initial = { u = 1 },
}
