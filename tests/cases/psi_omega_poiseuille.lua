-- Plane Poiseuille flow in the psi_omega model: a plug inflow (u = 1, Re = U H / nu = 10)
-- develops into u = 4 U_max y (H - y) / H^2 with U_max = 1.5; on 96 x 24 cells the
-- profile near the outflow (x = 0.9 L) must match within 1% of U_max.
local length = 4.0
local sim = require("flowlua.channel").simulation { nx = 96, ny = 24, length = length, Re = 10, t_end = 10 }
sim:run()
local pois = require("flowlua.poiseuille")
local dev = pois.deviation(sim, 0.9 * length, 1.0, 1.5)
print(string.format("psi_omega, 96x24, t = %.2f: deviation from the exact profile %.3f%% of U_max", sim.time, 100 * dev))
assert(dev < 0.01, "Poiseuille profile off by " .. 100 * dev .. "%")
-- Still a plug near the inlet: the test can tell the two apart.
assert(pois.deviation(sim, 0.05, 1.0, 1.5) > 0.05, "profile is parabolic already at the inlet?")
-- The stream function carries the flux: psi(top) - psi(bottom) = U H = 1.
local d = sim:diagnostics()
assert(math.abs(d.stream_max - d.stream_min - 1) < 1e-9, "flux through the channel " .. d.stream_max - d.stream_min)
