-- expect-exit: 1
-- expect-message: boundaries.right: outflow is not yet available in the 3D fractional_step model
-- expect-message: drive the flow with fluid.force in a periodic box
-- Outflow sides are refused by the 3D fractional_step model (walls and periodic sides only).
flow.simulation { model = "fractional_step", grid = { nx = 8, ny = 8, nz = 8 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
                 back = flow.periodic(), front = flow.periodic() },
  time = { t_end = 1 } }
