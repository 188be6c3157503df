-- expect-exit: 1
-- expect-message: too close to 1/2 for collision = 'bgk'
-- expect-message: the smallest nu allowed is
-- expect-message: collision = 'trt' allows
-- A viscosity that puts the relaxation time next to 1/2 is refused with the smallest nu.
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 8, ny = 8, lx = 8, ly = 8 },
  fluid = { nu = 1e-6 },
  initial = { h = 1.0 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  time = { steps = 1 },
}
sim:run()
