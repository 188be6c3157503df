-- expect-exit: 1
-- expect-message: inflow u function on the left side returned string 'fast' at y = 0.0625, t = 0
-- A boundary profile must return numbers; the message names the side and the coordinate.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.inflow { u = function(y, t) return "fast" end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
}
