-- expect-exit: 1
-- expect-message: pressure.preconditioner = 'fft' needs the same pressure condition on both sides of an axis
-- The FFT preconditioner (the box's inverse) cannot be built across an inflow-outflow axis.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 8 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall() },
  pressure = { solver = "pcg", preconditioner = "fft" }, time = { t_end = 1 } }
