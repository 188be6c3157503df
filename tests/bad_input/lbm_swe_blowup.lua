-- expect-exit: 3
-- expect-message: numerical blow-up at step 
-- expect-message: lbm_swe: depth h =
-- expect-message: (the guard checks every 16 steps)
-- A 10 : 1 circular dam break at tau = 0.53 (TRT) goes unstable at the bore; the depth
-- guard stops the run with the step, time and cell.
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 50, ny = 50, lx = 50, ly = 50 },
  fluid = { nu = 0.3 },
  collision = "trt",
  initial = { h = function(x, y) return ((x - 25) ^ 2 + (y - 25) ^ 2 < 121) and 10.0 or 1.0 end },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  time = { steps = 400, cfl = 0.35 },
}
sim:run()
