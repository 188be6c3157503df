-- expect-exit: 1
-- expect-message: sim:restore() was called from inside one of this simulation's callbacks; restore before sim:run()
-- Replacing the state under a running loop is refused (the loop's step and the
-- callbacks' schedule would no longer agree).
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = 10 },
}
sim:every(2, function(s) s:restore("checkpoint_000002.h5") end)
sim:run()
