-- expect-exit: 1
-- expect-message: the obstacles cover every cell
-- No fluid left.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  obstacles = { function(x, y) return true end },
}
