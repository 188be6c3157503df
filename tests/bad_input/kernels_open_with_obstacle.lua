-- expect-exit: 1
-- expect-message: kernels.correction = 'open' needs no obstacles
-- The obstacle-free variant cannot run a case with an obstacle.
flow.simulation {
  grid = { nx = 16, ny = 8, lx = 2, ly = 1 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  -- A predicate obstacle is always cells (a flow.rect would be an immersed body, whose
  -- cells stay fluid, and the open variant would apply).
  obstacles = { function(x, y) return x > 0.5 and x < 0.75 and y > 0.25 and y < 0.75 end },
  kernels = { correction = "open" },
}
