-- expect-exit: 1
-- expect-message: pressure.solver = 'rbsor' is not offered by the fractional_step model
-- A Poisson solver the model does not take is named with the ones it does.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  pressure = { solver = "rbsor" }, time = { t_end = 1 } }
