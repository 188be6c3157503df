-- Cavity at Re = 1000 on 128 x 128 against Ghia, Ghia & Shin (1982): the largest
-- deviation over the interior centreline points must stay below 0.02 (a
-- second-order solver on 128^2 lands at about 0.01; scripts/reference/README.md).
-- It stops on its own (time.steady = 1e-4; measured t = 47.8) before its t_end.
-- The pressure is solved by multigrid to the same relative residual (1e-4) as the
-- cavity's red-black SOR: the same steady time and deviations to the printed digits
-- (t = 47.77, u 0.0033, v 0.0118 with either) at half the CPU time (docs/validation.md).
local Re, n = 1000, 128
local sim, report = require("flowlua.cavity").steady(Re, n, 60, { solver = "multigrid", tol = 1e-4 })
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
print(string.format("Re %d, %dx%d, %s at t = %.2f: max deviation u %.4f, v %.4f", Re, n, n, report.reason,
                    sim.time, per.u, per.v))
assert(worst < 0.02, "cavity deviates from Ghia et al. by " .. worst)
assert(report.reason == "reached a steady state", "the Re = 1000 cavity did not become steady: " .. report.reason)
