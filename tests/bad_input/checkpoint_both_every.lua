-- expect-exit: 1
-- expect-message: checkpoint: give one of every = N (steps) or every_time = T (simulated time)
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  checkpoint = { every = 10, every_time = 0.5 },
}
