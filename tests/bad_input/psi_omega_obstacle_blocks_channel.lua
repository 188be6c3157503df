-- expect-exit: 1
-- expect-message: touches the sides where their stream function differs
-- A body from wall to wall would stop the flow from the inflow to the outflow.
flow.simulation {
  model = "psi_omega", grid = { nx = 32, ny = 16, lx = 2, ly = 1 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.inflow { u = function(y) return 6 * y * (1 - y) end }, right = flow.outflow(),
                 bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.rect { x0 = 0.8, x1 = 1.0, y0 = 0.0, y1 = 1.0 } },
}
