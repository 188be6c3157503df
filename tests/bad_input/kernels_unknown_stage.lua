-- expect-exit: 1
-- expect-message: unknown key 'momentun' in kernels; did you mean 'momentum'?
flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
  kernels = { momentun = "central" },
}
