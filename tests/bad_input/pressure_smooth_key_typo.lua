-- expect-exit: 1
-- expect-message: unknown key 'pre_smoth' in pressure; did you mean 'pre_smooth'?
-- A misspelt multigrid key.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "multigrid", pre_smoth = 3 },
}
