-- expect-exit: 1
-- expect-message: the initial depth must be positive in every wet cell; h = -0.5 at x =
-- A surface below the bed gives a negative depth (this model has no wetting and drying).
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 8, ny = 8, lx = 8, ly = 8 },
  fluid = { nu = 0.1 },
  bed = function(x, y) return x > 6 and 1.5 or 0 end,
  initial = { eta = 1.0 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  time = { steps = 1 },
}
sim:run()
