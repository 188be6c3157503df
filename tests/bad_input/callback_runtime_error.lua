-- expect-exit: 1
-- expect-message: callback_runtime_error.lua:14: attempt to perform arithmetic on a nil value
-- A runtime error inside a callback names the callback's own line.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  time = { steps = 10 },
}
sim:every(2, function(s)
  local missing
  return missing + s.step
end)
sim:run()
