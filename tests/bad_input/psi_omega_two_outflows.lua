-- expect-exit: 1
-- expect-message: the psi_omega model takes at most one outflow side
-- Two outflows leave the split of the flow undetermined.
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 8, lx = 2 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), top = flow.outflow(), bottom = flow.wall() },
}
