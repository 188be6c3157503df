-- expect-exit: 1
-- expect-message: fluid.force has a third component, but this grid is 2D
-- A body force with a z component on a 2D grid is refused.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.01, force = { 0, 0, 1 } }, time = { t_end = 1 } }
