-- expect-exit: 1
-- expect-message: boundaries.back is missing: every side of a 3D box needs a condition
-- A 3D case given only the four sides of a 2D case is refused, naming the missing side.
flow.simulation { model = "fractional_step", grid = { nx = 8, ny = 8, nz = 8 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  time = { t_end = 1 } }
