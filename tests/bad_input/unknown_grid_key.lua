-- expect-exit: 1
-- expect-message: unknown key 'lyy' in grid; did you mean 'ly'?
-- A misspelt key inside grid.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8, lyy = 1 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
