-- expect-exit: 1
-- expect-message: unknown_method.lua:12: a simulation has no field or method 'stpo'; did you mean 'stop'?
-- A misspelt method on the simulation object.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
sim:every(1, function(s) end)
sim:stpo()
