-- expect-exit: 1
-- expect-message: boundaries.top: w (the z velocity) is for 3D grids; this grid is 2D
local sim = flow.simulation{
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall{ u = 1, w = 1 } },
}
sim:run()
