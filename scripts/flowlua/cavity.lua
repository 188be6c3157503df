-- The lid-driven unit cavity (lid u = 1 on top) as the validation tests run it:
-- central differences, red-black SOR, run to a steady state.
--   local sim, report = require("flowlua.cavity").steady(Re, n, t_end[, pressure])
-- (report: what sim:run() returned; report.reason says whether it became steady)
-- `pressure` (optional) replaces the pressure table { solver = "rbsor", omega = 1.9,
-- tol = 1e-4 }, e.g. { solver = "multigrid", tol = 1e-4 }: the same relative residual
-- in fewer sweeps (the Ghia tests; docs/validation.md).
local M = {}

function M.steady(Re, n, t_end, pressure)
  local sim = flow.simulation {
    grid = { nx = n, ny = n, lx = 1, ly = 1 },
    fluid = { nu = 1 / Re },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = { t_end = t_end, steady = 1e-4 },
    pressure = pressure or { solver = "rbsor", omega = 1.9, tol = 1e-4 },
  }
  local report = sim:run()
  return sim, report
end

-- The same cavity in the stream function-vorticity model (model = "psi_omega"):
-- central convection, Thom's wall vorticity, Jacobi CG for psi, run until steady
-- (time.steady = 1e-3: the velocity changes by less than 1e-3 of the lid speed per
-- time unit) or t_end.
--   local sim = require("flowlua.cavity").psi_omega(Re, n, t_end)
-- `time` (optional) adds keys to the time table: { scheme = "adi", dt = 0.02 } (a dt
-- replaces the cfl factor); `pressure` (optional) is the stream-function solver's table,
-- e.g. { solver = "adi" } (line relaxation).
function M.psi_omega(Re, n, t_end, kernels, time, pressure)
  local t = { t_end = t_end, steady = 1e-3, cfl = 0.9 }
  for k, v in pairs(time or {}) do t[k] = v end
  if t.dt then t.cfl = nil end
  local sim = flow.simulation {
    model = "psi_omega",
    grid = { nx = n, ny = n, lx = 1, ly = 1 },
    fluid = { nu = 1 / Re },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = t,
    kernels = kernels,
    pressure = pressure,
  }
  local report = sim:run()
  return sim, report
end

return M
