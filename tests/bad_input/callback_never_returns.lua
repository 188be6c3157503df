-- expect-exit: 4
-- expect-args: --timeout 1
-- expect-message: the --timeout of 1 s is over: Lua code that was still running was stopped
-- expect-message: callback_never_returns.lua:14:
-- A callback that never returns is stopped by --timeout (a Lua hook): 2 s after the
-- limit, with a message naming its line, exit code 4.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = 100 },
}
sim:every(3, function(s)
  while true do end
end)
sim:run()
