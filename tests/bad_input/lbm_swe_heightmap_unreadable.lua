-- expect-exit: 1
-- expect-message: flow.heightmap: cannot read the image
-- expect-message: no_such_bed.png
-- A heightmap file that cannot be read is named in the message.
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 8, ny = 8, lx = 8, ly = 8 },
  fluid = { nu = 0.1 },
  bed = flow.heightmap("no_such_bed.png", { 0, 1 }),
  initial = { eta = 1.0 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  time = { steps = 1 },
}
sim:run()
