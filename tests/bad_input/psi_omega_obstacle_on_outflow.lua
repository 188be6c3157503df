-- expect-exit: 1
-- expect-message: touches the right side, an outflow
flow.simulation {
  model = "psi_omega", grid = { nx = 32, ny = 16, lx = 2, ly = 1 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.rect { x0 = 1.6, x1 = 2.0, y0 = 0.3, y1 = 0.7 } },
}
