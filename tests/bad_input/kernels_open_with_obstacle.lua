-- expect-exit: 1
-- expect-message: kernels.correction = 'open' needs no obstacles
-- The obstacle-free variant cannot run a case with an obstacle.
flow.simulation {
  grid = { nx = 16, ny = 8, lx = 2, ly = 1 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  obstacles = { flow.rect { x0 = 0.5, y0 = 0.25, x1 = 0.75, y1 = 0.75 } },
  kernels = { correction = "open" },
}
