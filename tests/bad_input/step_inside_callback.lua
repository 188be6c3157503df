-- expect-exit: 1
-- expect-message: step_inside_callback.lua:13: sim:step() was called from inside one of this simulation's callbacks
-- Callbacks run between steps; they cannot step their own simulation.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  time = { steps = 4 },
}
sim:every(2, function(s)
  s:step(1)
end)
sim:run()
