-- expect-exit: 1
-- expect-message: boundaries.left is periodic but boundaries.right is wall
-- expect-message: periodic must be on both the left and the right side
-- Periodic on one side only.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.periodic(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
