-- expect-exit: 1
-- expect-message: model = 'projection' is 2D, and grid.nz = 8 makes a 3D grid
-- A 3D grid (grid.nz > 1) for a 2D model is refused before anything is built.
local sim = flow.simulation{
  grid = { nx = 8, ny = 8, nz = 8 },
  time = { t_end = 0.1 },
}
sim:run()
