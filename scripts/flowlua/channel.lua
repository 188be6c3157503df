-- A plane channel in the psi_omega model, as cases/psi_omega/channel_heated.lua and
-- case.psi_omega_poiseuille run it: plug inflow u = U on the left (optionally at
-- temperature T_in), outflow on the right, no-slip walls (at temperature T_wall when
-- heat is on). Re = U H / nu.
--   local sim = require("flowlua.channel").simulation { nx =, ny =, length =, Re =, Pr =, T_in =, T_wall =, t_end = }
local M = {}

function M.simulation(o)
  local H, U = 1.0, 1.0
  local heat = o.Pr ~= nil
  local T_wall = heat and { T = flow.dirichlet(o.T_wall or 0) } or nil
  return flow.simulation {
    model = "psi_omega",
    grid = { nx = o.nx, ny = o.ny, lx = o.length, ly = H },
    fluid = { Re = o.Re, Pr = o.Pr },
    boundaries = {
      left = flow.inflow { u = U, T = heat and flow.dirichlet(o.T_in or 1) or nil },
      right = flow.outflow(),
      bottom = flow.wall(T_wall),
      top = flow.wall(T_wall),
    },
    kernels = o.kernels,
    time = { t_end = o.t_end, steady = o.steady or 1e-4, cfl = 0.9, scheme = o.scheme },
  }
end

return M
