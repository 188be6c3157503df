-- expect-exit: 1
-- expect-message: boundaries.right is periodic but boundaries.left is inflow
-- Inflow on one side of a periodic pair: periodic must be on both sides.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.periodic(), bottom = flow.wall(), top = flow.wall() },
  time = { t_end = 1 } }
