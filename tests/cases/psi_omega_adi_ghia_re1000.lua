-- Cavity at Re = 1000 in the psi_omega model with Peaceman-Rachford ADI on 128 x 128
-- cells, dt = 0.1: 6.5 times the explicit diffusion limit h^2 / (4 nu) = 0.0153, 13 times
-- the lid's CFL limit h / U, and 50 times the cell-Peclet limit 2 nu / U^2 of forward
-- Euler with central convection. The stream function by line relaxation (the default
-- with ADI: pressure.solver = 'adi'), run until steady (time.steady = 1e-3). It must stop
-- on the steady test before t = 50 (ADI compares over 50 steps, sim/steady.hpp; over the
-- run loop's 500 the first comparison would come after t = 50) and lie within 0.02 of
-- Ghia, Ghia & Shin (1982) over the interior centreline points (measured 2026-11-25:
-- steady at t = 44.4 after 444 steps, u 0.0141, v 0.0075; the explicit scheme takes
-- 21631 steps, docs/performance.md).
local Re, n, dt = 1000, 128, 0.1
local sim, report = require("flowlua.cavity").psi_omega(Re, n, 50, nil, { scheme = "adi", dt = dt })
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
local d = sim:diagnostics()
print(string.format("psi_omega ADI Re %d, %dx%d, dt %g: %s after %d steps, t = %.2f; max deviation u %.4f, " ..
                    "v %.4f; last stream solve %d iterations", Re, n, n, dt, report.reason, d.step, sim.time,
                    per.u, per.v, d.pressure_iterations))
assert(report.reason == "reached a steady state", "ADI cavity did not become steady before t = 50: " .. report.reason)
assert(sim.time < 49, "stopped at t = " .. sim.time)
assert(d.pressure_iterations <= 4, "line relaxation needed " .. d.pressure_iterations .. " iterations at the end")
assert(worst < 0.02, "ADI cavity deviates from Ghia et al. by " .. worst)
