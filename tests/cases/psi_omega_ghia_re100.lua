-- Cavity at Re = 100 in the psi_omega model (central convection, Thom's wall vorticity)
-- on 64 x 64 cells (65 x 65 nodes) against Ghia, Ghia & Shin (1982): the
-- largest deviation over the interior centreline points must stay below 0.02.
local Re, n = 100, 64
local sim = require("flowlua.cavity").psi_omega(Re, n, 30)
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
print(string.format("psi_omega Re %d, %dx%d, t = %.2f: max deviation u %.4f, v %.4f, psi_min %.4f", Re, n, n,
                    sim.time, per.u, per.v, sim:diagnostics().stream_min))
assert(worst < 0.02, "cavity deviates from Ghia et al. by " .. worst)
