-- expect-exit: 1
-- expect-message: boundaries: fluid flows in (net flux 0.5) but has nowhere to go; give one side flow.outflow()
-- Inflow into a box whose other sides are walls.
flow.simulation { model = "fractional_step", grid = { nx = 16, ny = 8, lx = 2 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.inflow { u = 0.5 }, right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  pressure = { solver = "multigrid" }, time = { t_end = 1 } }
