-- expect-exit: 1
-- expect-message: multigrid_gather
-- expect-message: not 'rbsor'
-- multigrid_gather tunes the multigrid solver and preconditioner only.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "rbsor", multigrid_gather = 4096 },
  time = { steps = 1 },
}
sim:run()
