-- Cavity at Re = 1000 on 128 x 128 against Ghia, Ghia & Shin (1982), Table I and II:
-- the largest deviation over the interior centreline points must stay below 0.02
-- (a second-order solver on 128^2 lands at about 0.01; reference/README.md).
local Re, n = 1000, 128
local sim = flow.simulation {
  grid = { nx = n, ny = n, lx = 1, ly = 1 },
  fluid = { nu = 1 / Re },
  boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
  time = { t_end = 60, steady = 1e-4 },
  pressure = { solver = "rbsor", omega = 1.9, tol = 1e-4 },
}
sim:run()
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
print(string.format("Re %d, %dx%d, t = %.2f: max deviation u %.4f, v %.4f", Re, n, n, sim.time, per.u, per.v))
assert(worst < 0.02, "cavity deviates from Ghia et al. by " .. worst)
