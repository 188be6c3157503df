-- Cavity at Re = 1000 on 128 x 128 cells with Peaceman-Rachford ADI (dt = 0.1) and the
-- stream function by ADI line relaxation (pressure.solver = 'adi'), run until steady
-- (time.steady = 1e-3). It must stop on the steady test before t = 50 (ADI compares over
-- 50 steps, sim/steady.hpp; over the run loop's 500 the first comparison would come at
-- t = 50 + 81) and lie within 0.02 of Ghia, Ghia & Shin (1982) (measured 2026-11-25:
-- steady at t = 44.4, 444 steps, u 0.0141, v 0.0075).
local Re, n, dt = 1000, 128, 0.1
local sim, report = require("flowlua.cavity").psi_omega(Re, n, 50, nil, { scheme = "adi", dt = dt },
                                                        { solver = "adi" })
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
local d = sim:diagnostics()
print(string.format("psi_omega ADI + line relaxation, Re %d, %dx%d, dt %g: %s after %d steps, t = %.2f; " ..
                    "max deviation u %.4f, v %.4f; last stream solve %d iterations", Re, n, n, dt, report.reason,
                    d.step, sim.time, per.u, per.v, d.pressure_iterations))
assert(report.reason == "reached a steady state", "ADI cavity did not become steady before t = 50: " .. report.reason)
assert(sim.time < 49, "stopped at t = " .. sim.time)
assert(worst < 0.02, "ADI cavity deviates from Ghia et al. by " .. worst)
