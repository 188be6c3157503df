-- expect-exit: 1
-- expect-message: initial.w: is the z velocity of a 3D case, and this grid is 2D
-- A 3D key (the z velocity) in a 2D fractional_step case is refused, naming the key.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  initial = { u = 0, w = 1 }, time = { t_end = 1 } }
