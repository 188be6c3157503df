-- expect-exit: 1
-- expect-message: stack overflow
-- Endless recursion in a callback is a Lua error, not a crash.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  time = { steps = 2 },
}
local function down(n) return 1 + down(n + 1) end
sim:every(1, function(s) down(1) end)
sim:run()
