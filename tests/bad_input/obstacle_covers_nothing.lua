-- expect-exit: 1
-- expect-message: obstacles[2] (circle at (0.5, 0.5) r = 0.01) covers no cell
-- An obstacle smaller than a cell would silently vanish.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  obstacles = {
    flow.rect { x0 = 0.25, y0 = 0.25, x1 = 0.5, y1 = 0.5 },
    flow.circle { x = 0.5, y = 0.5, r = 0.01 },
  },
}
