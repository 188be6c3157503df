-- expect-exit: 1
-- expect-message: a body's temperature condition is a number
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.1, Pr = 1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  obstacles = { { flow.circle { x = 0.5, y = 0.5, r = 0.2 }, T = flow.dirichlet(function(s, t) return 1 end) } },
}
