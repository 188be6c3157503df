-- The lid-driven cavity (cases/cavity.lua's set-up) on 24 x 16 cells (lx = 1.5, so
-- dx == dy but nx ~= ny: a swapped axis would show), 30 steps, a .vti every 10 steps
-- with every field, then one with every field at the end.
local sim = flow.simulation {
  model = "projection",
  grid = { nx = 24, ny = 16, lx = 1.5, ly = 1.0 },
  fluid = { nu = 1.0 / 100 },
  boundaries = { top = flow.wall { u = 1.0 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
  time = { cfl = 0.5 },
  pressure = { solver = "rbsor", omega = 1.9, tol = 1e-4 },
}
sim:every(10, flow.vtk { file = "cavity/cavity_%04d.vti" })
sim:step(30)
flow.write_vtk(sim, "cavity/final.vti")
local fields = { "u", "v", "p", "speed", "vorticity", "stream", "divergence" }
local arrays = { "u", "v", "p", "speed", "vorticity", "stream", "divergence", "velocity", "solid" }
require("expect").write(sim, "cavity/final", fields, arrays)
