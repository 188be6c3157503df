-- expect-exit: 1
-- expect-message: pressure.mixed is offered by the projection model only
-- The other models refuse the key rather than ignore it.
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { mixed = true }, time = { steps = 2 },
}
