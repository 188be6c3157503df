-- expect-exit: 1
-- expect-message: fft_direct
-- expect-message: pressure.solver = 'fft'
-- The direct FFT kernel forced where the case's pressure solver is not the FFT one is
-- refused with what the variant needs.
flow.simulation { model = "fractional_step", grid = { nx = 8, ny = 8, nz = 8 }, fluid = { nu = 0.01 },
  pressure = { solver = "multigrid" }, kernels = { pressure = "fft_direct" }, time = { t_end = 1 } }
