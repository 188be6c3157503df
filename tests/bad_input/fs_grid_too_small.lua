-- expect-exit: 1
-- expect-message: the fractional_step model needs nx and ny of at least 4
-- QUICK reaches two cells on each side; a 3-cell periodic axis would alias it.
flow.simulation { model = "fractional_step", grid = { nx = 3, ny = 16 }, fluid = { nu = 0.01 }, time = { t_end = 1 } }
