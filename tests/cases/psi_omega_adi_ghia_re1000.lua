-- Cavity at Re = 1000 in the psi_omega model with Peaceman-Rachford ADI on 128 x 128
-- cells, dt = 0.1: 6.5 times the explicit diffusion limit h^2 / (4 nu) = 0.0153, 13 times
-- the lid's CFL limit h / U, and 50 times the cell-Peclet limit 2 nu / U^2 of forward
-- Euler with central convection. 500 steps to t = 50 (the explicit scheme takes 21631,
-- docs/performance.md). Against Ghia, Ghia & Shin (1982): the largest deviation over the
-- interior centreline points must stay below 0.02 (measured: 0.0139).
local Re, n, dt = 1000, 128, 0.1
local sim = require("flowlua.cavity").psi_omega(Re, n, 50, nil, { scheme = "adi", dt = dt })
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
print(string.format("psi_omega ADI Re %d, %dx%d, dt %g, %d steps, t = %.2f: max deviation u %.4f, v %.4f", Re, n,
                    n, dt, sim:diagnostics().step, sim.time, per.u, per.v))
assert(worst < 0.02, "ADI cavity deviates from Ghia et al. by " .. worst)
