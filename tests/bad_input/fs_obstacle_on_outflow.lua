-- expect-exit: 1
-- expect-message: obstacles: the cell (16, 3) beside the outflow side right is solid
-- An obstacle that reaches the outflow side.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 8, lx = 2 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.rect { x0 = 1.5, y0 = 0.3, x1 = 2.5, y1 = 0.6 } }, time = { t_end = 1 } }
