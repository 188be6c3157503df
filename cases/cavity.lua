-- Lid-driven square cavity (Ghia, Ghia & Shin 1982; seed 002 sec. 5.1).
--   flowlua cases/cavity.lua                      Re = 100 on 128 x 128
--   flowlua cases/cavity.lua --set Re=1000 --set n=64
-- Runs to a steady state, writes pictures of speed (with arrows), vorticity and the
-- stream function (with streamlines), a VTK file of every field, and compares the
-- centreline velocities with Ghia's table.
local Re = param("Re", 100)
local n = param("n", 128)
local t_end = param("t_end", 60.0)

local sim = flow.simulation {
  model = "projection",
  grid = { nx = n, ny = n, lx = 1.0, ly = 1.0 },
  fluid = { nu = 1.0 / Re },
  boundaries = {
    top = flow.wall { u = 1.0 },  -- the moving lid
    bottom = flow.wall(), left = flow.wall(), right = flow.wall(),
  },
  time = { t_end = t_end, cfl = 0.5, steady = 1e-4 },
  pressure = { solver = "rbsor", omega = 1.9, tol = 1e-4 },
}

sim:every_time(5.0, function(s)
  local d = s:diagnostics()
  print(string.format("t = %6.2f  step %7d  max speed %.4f  kinetic energy %.5f  SOR iterations %d",
                      s.time, s.step, d.max_speed, d.kinetic_energy, d.pressure_iterations))
end)
sim:every_time(10.0, flow.png { field = "vorticity", file = "vorticity_%06d.png",
                                colormap = "coolwarm", range = { -5, 5 } })

sim:on_finish(function(s)
  flow.write_png(s, "speed.png", { field = "speed", colormap = "viridis", arrows = 24 })
  flow.write_png(s:field("vorticity"), "vorticity.png", { colormap = "coolwarm", range = { -5, 5 } })
  -- The stream function is drawn with streamlines (16 isolines) over the colours.
  flow.write_png(s:field("stream"), "stream.png", { colormap = "coolwarm" })
  -- Every field for ParaView: out/cavity/cavity.vti (docs/case-language.md, "VTK files").
  flow.write_vtk(s, "cavity.vti")
end)

local report = sim:run()
print(string.format("stopped at t = %.3f after %d steps (%s)", sim.time, sim.step, report.reason or "done"))

if sim.step > 0 and (Re == 100 or Re == 1000) then
  local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
  print(string.format("largest deviation from Ghia et al. (1982): %.4f (u: %.4f, v: %.4f)", worst, per.u, per.v))
end
print("pictures in " .. flow.output_dir())
