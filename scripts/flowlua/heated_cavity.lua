-- The differentially heated square cavity (de Vahl Davis 1983) in the psi_omega model,
-- as cases/psi_omega/heated_cavity.lua and the validation tests run it: left wall hot
-- (T = 1), right wall cold (T = 0), top and bottom adiabatic, gravity -y, starting at
-- rest from the conduction profile T = 1 - x. Nondimensional with the kappa-based
-- scales: L = 1, kappa = 1, nu = Pr, beta |g| dT = Ra Pr; velocities in units of kappa / L.
--   local sim = require("flowlua.heated_cavity").steady(Ra, Pr, n, t_end)
local M = {}

function M.simulation(Ra, Pr, n, t_end, steady)
  return flow.simulation {
    model = "psi_omega",
    grid = { nx = n, ny = n, lx = 1, ly = 1 },
    fluid = { Ra = Ra, Pr = Pr },  -- kappa = 1, nu = Pr, beta = Ra Pr, gravity { 0, -1 }
    boundaries = {
      left = flow.wall { T = flow.dirichlet(1) },
      right = flow.wall { T = flow.dirichlet(0) },
      bottom = flow.wall { T = flow.neumann(0) },
      top = flow.wall { T = flow.neumann(0) },
    },
    initial = { T = function(x, y) return 1 - x end },
    time = { t_end = t_end, steady = steady or 1e-3, cfl = 0.9 },
  }
end

function M.steady(Ra, Pr, n, t_end, steady)
  local sim = M.simulation(Ra, Pr, n, t_end, steady)
  sim:run()
  return sim
end

return M
