-- Cavity at Re = 100 on 128 x 128 against Ghia, Ghia & Shin (1982): the largest
-- deviation over the interior centreline points must stay below 0.02 (a
-- second-order solver on 128^2 lands at about 0.01; scripts/reference/README.md).
local Re, n = 100, 128
local sim = require("flowlua.cavity").steady(Re, n, 40)
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
print(string.format("Re %d, %dx%d, t = %.2f: max deviation u %.4f, v %.4f", Re, n, n, sim.time, per.u, per.v))
assert(worst < 0.02, "cavity deviates from Ghia et al. by " .. worst)
