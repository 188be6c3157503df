-- expect-exit: 1
-- expect-message: the time step is too large for this initial state: max(|u| + sqrt(g h)) =
-- expect-message: is not below the lattice speed e = dx / dt
-- A fixed dt whose lattice speed dx / dt is below the wave speed sqrt(g h) is refused.
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 8, ny = 8, lx = 8, ly = 8 },
  fluid = { nu = 0.1 },
  initial = { h = 10.0 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  time = { steps = 1, dt = 0.5 },
}
sim:run()
