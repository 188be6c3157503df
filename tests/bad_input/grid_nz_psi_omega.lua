-- expect-exit: 1
-- expect-message: model = 'psi_omega' is 2D, and grid.nz = 4 makes a 3D grid
local sim = flow.simulation{
  model = "psi_omega",
  grid = { nx = 8, ny = 8, nz = 4, lz = 0.5 },
  fluid = { nu = 0.01 },
}
sim:run()
