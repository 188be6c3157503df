-- expect-exit: 1
-- expect-message: obstacles.T: a key of one obstacle goes into that obstacle's own table
-- T beside the shape in the list, not in the obstacle's own table.
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.1, Pr = 1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.2 }, T = flow.dirichlet(1) },
}
