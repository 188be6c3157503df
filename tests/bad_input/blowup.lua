-- expect-exit: 3
-- expect-message: numerical blow-up at step
-- expect-message: (t =
-- expect-message: try a smaller
-- A fixed time step far too large for the grid makes the solution blow up.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.001 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  time = { dt = 10, steps = 200 },
}
sim:run()
