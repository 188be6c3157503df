-- expect-exit: 1
-- expect-message: exceeds AB2's diffusive stability limit
-- A fixed dt that would blow up is refused before the run, with the limit named.
flow.simulation { model = "fractional_step", grid = { nx = 64, ny = 64 }, fluid = { nu = 0.5 },
  time = { t_end = 1, dt = 0.01 } }
