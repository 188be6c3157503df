-- expect-exit: 1
-- expect-message: unknown key 'kep' in checkpoint; did you mean 'keep'?
-- A misspelt key of the checkpoint table is refused with the key it probably meant.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  checkpoint = { every = 10, kep = 3 },
}
