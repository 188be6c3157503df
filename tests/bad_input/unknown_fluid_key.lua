-- expect-exit: 1
-- expect-message: unknown_fluid_key.lua:4: unknown key 'nuu' in fluid; did you mean 'nu'?
-- A misspelt key inside fluid.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nuu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
