-- The cylinder of cases/cylinder.lua (flowlua.cylinder) on ny = 20 (107 x 20 cells),
-- 30 steps; a .vti of four fields every 10 steps, and the same four at the end: the
-- obstacle cells must come back as solid = 1.
local sim = require("flowlua.cylinder").simulation { ny = 20, t_end = 1, cfl = 0.5, perturb = 0.1 }
local fields = { "u", "v", "p", "vorticity" }
sim:every(10, flow.vtk { fields = fields, file = "cylinder/cyl_%04d.vti", collection = "cylinder/cylinder.pvd" })
sim:step(30)
flow.write_vtk(sim, "cylinder/final.vti", { fields = fields })
require("expect").write(sim, "cylinder/final", { "u", "v", "p", "vorticity", "solid" },
                        { "u", "v", "p", "vorticity", "velocity", "solid" })
