-- expect-exit: 1
-- expect-message: flow.dirichlet function (T) on the left side returned
-- expect-message: at y = 0, t = 0; it must return a finite number
-- A temperature profile that is not a number.
flow.simulation {
  model = "psi_omega", grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1, kappa = 0.1 },
  boundaries = { left = flow.wall { T = flow.dirichlet(function(y, t) return 0 / 0 end) }, right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
}
