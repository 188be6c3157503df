-- expect-exit: 1
-- expect-message: kernels.momentum = 'centrl' is not a variant of this stage
-- expect-message: 'central_open', 'central', 'hybrid_open', 'central_tile_open', 'hybrid_tile_open', 'hybrid'
-- A misspelt kernel variant names the variants there are.
flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  kernels = { momentum = "centrl" },
}
