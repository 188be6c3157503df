-- expect-exit: 1
-- expect-message: advection = 'upwind' is not allowed; allowed: 'quick', 'central'
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 },
  advection = "upwind", time = { t_end = 1 } }
