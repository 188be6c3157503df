-- expect-exit: 1
-- expect-message: grid.lz is the depth of a 3D grid; give grid.nz (> 1) with it
local sim = flow.simulation{
  grid = { nx = 8, ny = 8, lz = 1 },
}
sim:run()
