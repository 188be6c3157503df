-- Plane Poiseuille channel with a warmer inflow (seed 000, sec. 5.2): a plug inflow at
-- T = 1 enters a channel whose walls are held at T = 0; the velocity develops into the
-- parabola u = 6 U (y/H)(1 - y/H) while the warm core cools towards the walls.
-- Nondimensional: H = 1, U = 1, Re = U H / nu, Pr = nu / kappa.
--   flowlua cases/psi_omega/channel_heated.lua --set Re=20 --set Pr=0.7
local length = param("length", 6)
local sim = require("flowlua.channel").simulation {
  nx = param("nx", 144), ny = param("ny", 24), length = length,
  Re = param("Re", 20), Pr = param("Pr", 0.7), T_in = 1, T_wall = 0, t_end = param("t_end", 12),
}
sim:every_time(2, function(s)
  print(string.format("t = %5.2f  outlet centre T = %.4f", s.time, s:field("T"):sample(0.98 * length, 0.5)))
end)
sim:run()
local dev = require("flowlua.poiseuille").deviation(sim, 0.9 * length, 1.0, 1.5)
print(string.format("developed profile at x = %.2f: %.3f%% of U_max from the exact parabola", 0.9 * length, 100 * dev))
flow.write_png(sim:field("T"), "temperature.png", { colormap = "viridis", range = { 0, 1 } })
flow.write_png(sim:field("stream"), "stream.png", { colormap = "viridis" })
