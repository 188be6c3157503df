-- expect-exit: 1
-- expect-message: unknown key 'tpo' in boundaries; did you mean 'top'?
-- A misspelt side name.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), tpo = flow.wall { u = 1 },
  },
}
