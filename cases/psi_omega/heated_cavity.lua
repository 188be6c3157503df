-- Differentially heated square cavity (de Vahl Davis 1983), psi_omega model with
-- Boussinesq heat transport: left wall hot, right wall cold, top and bottom adiabatic.
-- Nondimensional (L = 1, kappa = 1, nu = Pr): see scripts/flowlua/heated_cavity.lua.
--   flowlua cases/psi_omega/heated_cavity.lua --set Ra=1e4 --set Pr=0.71 --set n=64
local Ra = param("Ra", 1e4)
local Pr = param("Pr", 0.71)
local n = param("n", 64)

local sim = require("flowlua.heated_cavity").simulation(Ra, Pr, n, param("t_end", 1.5))
sim:every(5000, function(s)
  print(string.format("t = %.3f  Nu(hot wall) = %.4f", s.time, s:diagnostics().dTdn_left))
end)
sim:run()

local m = require("flowlua.devahldavis").measure(sim)
print(string.format("Ra %g, Pr %g, %dx%d cells, t = %.3f: Nu %.4f, u_max %.3f at y = %.3f, v_max %.3f at x = %.3f",
                    Ra, Pr, n, n, sim.time, m.nusselt, m.u_max, m.u_max_y, m.v_max, m.v_max_x))
flow.write_png(sim:field("T"), "temperature.png", { colormap = "coolwarm", range = { 0, 1 } })
flow.write_png(sim:field("stream"), "stream.png", { colormap = "viridis" })
