-- expect-exit: 1
-- expect-message: grid.nz
local sim = flow.simulation{
  grid = { nx = 8, ny = 8, nz = 2.5 },
}
sim:run()
