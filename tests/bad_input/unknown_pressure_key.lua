-- expect-exit: 1
-- expect-message: unknown key 'omgea' in pressure; did you mean 'omega'?
-- A misspelt key inside pressure.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  pressure = { solver = "rbsor", omgea = 1.5 },
}
