-- expect-exit: 1
-- expect-message: pressure.multigrid_gather
-- The multigrid gather threshold counts cells: it must be at least 1.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "multigrid", multigrid_gather = 0 },
  time = { steps = 1 },
}
sim:run()
