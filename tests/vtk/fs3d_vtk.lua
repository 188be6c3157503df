-- A 3D fractional_step case (a driven duct, 6 x 5 x 4 cells with unequal spacings, so a
-- swapped axis would show), 20 steps, then flow.write_vtk of every field and a CSV of
-- what the snapshots hold, for check_vti3.py to compare with VTK's reader.
local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = 6, ny = 5, nz = 4, lx = 1.2, ly = 0.75, lz = 2.0 },
  fluid = { nu = 0.5, force = { 0, 0, 1 } },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { w = 0.3 },
                 back = flow.periodic(), front = flow.periodic() },
  initial = { u = function(x, y, z) return 0.1 * math.sin(6 * z) end },
  time = { cfl = 0.5 },
}
sim:step(20)
flow.write_vtk(sim, "fs3d/final.vti")
local names = { "u", "v", "w", "p", "speed", "vorticity", "vorticity_x", "vorticity_y", "vorticity_z", "divergence" }
local meta = flow.csv("fs3d/final_meta.csv")
meta:row { { "nx", 6 }, { "ny", 5 }, { "nz", 4 }, { "dx", 0.2 }, { "dy", 0.15 }, { "dz", 0.5 },
           { "time", sim.time }, { "step", sim.step } }
local snaps = {}
for k, n in ipairs(names) do snaps[k] = sim:field(n) end
local cells = flow.csv("fs3d/final_cells.csv")
for k = 1, 4 do
  for j = 1, 5 do
    for i = 1, 6 do
      local row = { { "i", i }, { "j", j }, { "k", k } }
      for m, n in ipairs(names) do row[#row + 1] = { n, snaps[m]:get(i, j, k) } end
      cells:row(row)
    end
  end
end
