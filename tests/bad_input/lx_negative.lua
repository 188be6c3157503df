-- expect-exit: 1
-- expect-message: grid.lx must be > 0 (got -1)
-- A negative domain length.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8, lx = -1, ly = 1 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
