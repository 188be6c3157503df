-- Cavity at Re = 100 in the psi_omega model with Peaceman-Rachford ADI (time.scheme =
-- "adi") on 64 x 64 cells, dt = 0.015: 2.5 times the explicit diffusion limit
-- h^2 / (4 nu) = 0.0061 and CFL 0.96 at the lid. Against Ghia, Ghia & Shin (1982): the
-- largest deviation over the interior centreline points must stay below 0.02.
local Re, n, dt = 100, 64, 0.015
local sim = require("flowlua.cavity").psi_omega(Re, n, 30, nil, { scheme = "adi", dt = dt })
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
print(string.format("psi_omega ADI Re %d, %dx%d, dt %g, %d steps, t = %.2f: max deviation u %.4f, v %.4f", Re, n,
                    n, dt, sim:diagnostics().step, sim.time, per.u, per.v))
assert(sim.time < 29.9, "ADI cavity did not reach the steady state by t = 30")
assert(worst < 0.02, "ADI cavity deviates from Ghia et al. by " .. worst)
