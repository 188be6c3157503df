-- expect-exit: 1
-- expect-message: checkpoint.keep
-- keep = 0 would delete every checkpoint as soon as it is written: refused.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  checkpoint = { every = 10, keep = 0 },
}
