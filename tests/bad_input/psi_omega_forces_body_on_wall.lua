-- expect-exit: 1
-- expect-message: sim:forces: obstacles[1] touches a side
-- A rib on the bottom wall of a channel runs (its stream function is the wall's), but
-- its force would need the pressure along the wall.
local sim = flow.simulation {
  model = "psi_omega", grid = { nx = 32, ny = 16, lx = 2, ly = 1 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.inflow { u = function(y) return 6 * y * (1 - y) end }, right = flow.outflow(),
                 bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.rect { x0 = 0.5, x1 = 0.75, y0 = 0.0, y1 = 0.25 } },
  time = { steps = 2 },
}
sim:run()
sim:forces(1)
