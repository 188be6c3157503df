-- expect-exit: 1
-- expect-message: boundaries.bottom = wall
-- expect-message: the fractional_step model has periodic sides only so far
-- Walls are refused by the fractional_step model (its box is periodic, as seed 004's).
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.periodic(), right = flow.periodic(), bottom = flow.wall(), top = flow.wall() },
  time = { t_end = 1 } }
