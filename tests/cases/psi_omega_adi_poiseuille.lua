-- Plane Poiseuille flow in the psi_omega model with Peaceman-Rachford ADI: a plug inflow
-- (u = 1, Re = U H / nu = 10), an outflow, and the adaptive ADI step (CFL only; measured
-- 0.0251 on 96 x 24 cells, 5.8 times the explicit diffusion limit h^2 / (4 nu) = 0.0043).
-- The step is checked as the mean, time / steps: the last step is cut short to land on
-- t_end, so sim.dt at the end is not the step the scheme took.
-- The developed profile near the outflow (x = 0.9 L) must match u = 4 U_max y (H - y) / H^2
-- (U_max = 1.5) within 1% of U_max, as tests/cases/psi_omega_poiseuille.lua asks of the
-- explicit scheme.
local length = 4.0
local sim = require("flowlua.channel").simulation { nx = 96, ny = 24, length = length, Re = 10, t_end = 10,
                                                    scheme = "adi" }
sim:run()
local pois = require("flowlua.poiseuille")
local dev = pois.deviation(sim, 0.9 * length, 1.0, 1.5)
local d = sim:diagnostics()
local mean_dt = sim.time / d.step
print(string.format("psi_omega ADI, 96x24, %d steps, mean dt %.4f, t = %.2f: deviation from the exact profile %.3f%% of U_max",
                    d.step, mean_dt, sim.time, 100 * dev))
assert(dev < 0.01, "Poiseuille profile off by " .. 100 * dev .. "%")
assert(pois.deviation(sim, 0.05, 1.0, 1.5) > 0.05, "profile is parabolic already at the inlet?")
assert(math.abs(d.stream_max - d.stream_min - 1) < 1e-9, "flux through the channel " .. d.stream_max - d.stream_min)
assert(mean_dt > 0.0043 * 4, "mean ADI step " .. mean_dt .. " not well beyond the explicit diffusion limit 0.0043")
