-- expect-exit: 1
-- expect-message: is a 3D shape, and this grid is 2D
local sim = flow.simulation{
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall{ u = 1 } },
  obstacles = { flow.sphere{ x = 0.5, y = 0.5, z = 0.5, r = 0.2 } },
}
sim:run()
