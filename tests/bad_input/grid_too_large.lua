-- expect-exit: 1
-- expect-message: grid_too_large.lua:7: the grid 65536 x 32768 needs at least
-- expect-message: bytes) (8 arrays of double per cell
-- expect-message: use a smaller grid, or precision = "float"
-- A grid too large for the memory is refused before anything is allocated, with the
-- bytes it needs (about 141 GB here) and what is available.
local sim = flow.simulation {
  grid = { nx = 65536, ny = 32768 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
