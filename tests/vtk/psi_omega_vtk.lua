-- The cavity in the stream function-vorticity model (cases/psi_omega/cavity.lua's
-- set-up) on 20 x 20 cells, 30 steps, uncompressed files this time; every output
-- field (psi and omega are aliases of stream and vorticity: written once).
local sim = flow.simulation {
  model = "psi_omega",
  grid = { nx = 20, ny = 20, lx = 1, ly = 1 },
  fluid = { nu = 1 / 100 },
  boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
  time = { cfl = 0.9 },
}
sim:every(10, flow.vtk { file = "psi_omega/po_%04d.vti", compress = false })
sim:step(30)
flow.write_vtk(sim, "psi_omega/final.vti", { compress = false })
require("expect").write(sim, "psi_omega/final", { "u", "v", "speed", "stream", "vorticity" },
                        { "u", "v", "speed", "stream", "vorticity", "velocity", "solid" })
