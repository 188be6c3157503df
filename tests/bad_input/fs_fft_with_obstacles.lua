-- expect-exit: 1
-- expect-message: pressure.solver = 'fft' (the direct solve) needs an obstacle-free box, and this case has 4 obstacle cells
-- expect-message: use pressure = { solver = 'pcg' }
-- The direct FFT solve asked for in a box with an obstacle.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  obstacles = { flow.rect { x0 = 0.4, y0 = 0.4, x1 = 0.52, y1 = 0.52 } },
  pressure = { solver = "fft" }, time = { t_end = 1 } }
