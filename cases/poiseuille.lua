-- Plane Poiseuille flow: a plug inflow develops into the parabolic profile
-- u(y) = 4 U_max y (H - y) / H^2 with U_max = 1.5 U_mean, which the case compares
-- with the computed profile near the outflow.
--   flowlua cases/poiseuille.lua --set Re=20 --set ny=64
local Re = param("Re", 10)        -- U_mean H / nu
local ny = param("ny", 32)
local length = param("length", 5.0)
local H, U = 1.0, 1.0

local sim = flow.simulation {
  grid = { nx = math.floor(ny * length / H), ny = ny, lx = length, ly = H },
  fluid = { nu = U * H / Re },
  boundaries = {
    left = flow.inflow { u = U },   -- plug profile
    right = flow.outflow(),
    bottom = flow.wall(), top = flow.wall(),
  },
  time = { t_end = 2.0, steady = 1e-5 },
  pressure = { solver = "cg", tol = 1e-6 },
}
sim:every(1000, function(s)
  print(string.format("t = %6.3f  step %6d  steady change %.2e", s.time, s.step, s:diagnostics().steady_change or -1))
end)
sim:run()

local dev = require("flowlua.poiseuille").deviation(sim, 0.9 * length, H, 1.5 * U)
print(string.format("profile at x = %.2f: largest deviation from the exact one %.3f%% of U_max", 0.9 * length, 100 * dev))
flow.write_png(sim:field("u"), "u.png", { colormap = "viridis" })
