-- expect-exit: 1
-- expect-message: the grid 2048 x 1024 x 1024 needs at least
-- expect-message: bytes) (8 arrays of double per cell with the ghost layer) and
-- expect-message: use a smaller grid, or precision = "float"
-- nz making a 3D grid larger than the memory (here 2^31 cells, about 140 GB) is refused
-- before anything is allocated, with the bytes needed and available.
flow.simulation { model = "fractional_step", grid = { nx = 2048, ny = 1024, nz = 1024 }, fluid = { nu = 0.01 },
  time = { t_end = 1 } }
