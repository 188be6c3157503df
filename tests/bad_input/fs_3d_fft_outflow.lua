-- expect-exit: 1
-- expect-message: pressure.solver = 'fft' needs the same pressure condition on both sides of an axis
-- expect-message: here left is wall or inflow (dp/dn = 0) and right is outflow (p = 0); use pressure = { solver = 'multigrid' }
-- The direct FFT solve asked for in a 3D channel with inflow on one side and outflow on the other.
flow.simulation { model = "fractional_step", grid = { nx = 8, ny = 8, nz = 8 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
                 back = flow.periodic(), front = flow.periodic() },
  pressure = { solver = "fft" }, time = { t_end = 1 } }
