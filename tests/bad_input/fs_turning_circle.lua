-- expect-exit: 1
-- expect-message: obstacles[1]
-- expect-message: a turning circle (omega) is not available in the fractional_step model, whose obstacles are at rest
-- A turning circle would be taken as one at rest without a word: refused.
flow.simulation { model = "fractional_step", grid = { nx = 32, ny = 16, lx = 2 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.15, omega = 2 } }, time = { t_end = 1 } }
