-- The Schäfer & Turek (1996) 2D-2 channel with a cylinder, as cases/cylinder.lua and
-- tests/cases/cylinder_sheds.lua build it:
--   local cyl = require("flowlua.cylinder")
--   local sim = cyl.simulation { ny = 41, t_end = 6, cfl = 0.5, perturb = 0.1 }
-- (`steady = ...`, `steady_interval = ...` add the steady test, time.steady: the shedding
-- flow must never pass it)
-- cyl.H, cyl.L, cyl.D, cyl.xc, cyl.yc, cyl.Um, cyl.U (mean inflow speed) and cyl.nu are
-- the benchmark's numbers; cyl.inflow(y) is its parabolic profile.
local M = { H = 0.41, L = 2.2, D = 0.1, xc = 0.2, yc = 0.2, Um = 1.5, nu = 1e-3 }
M.U = 2 * M.Um / 3  -- mean inflow speed = 1, so Re = U D / nu = 100

function M.inflow(y, Um) return 4 * (Um or M.Um) * y * (M.H - y) / (M.H * M.H) end

-- Starts from the inflow profile everywhere, with a small upward puff just behind the
-- cylinder (strength `perturb` x U) so that the symmetric, unstable wake is left quickly.
-- Options: ny, t_end, cfl, perturb (0: none), steady, steady_interval; Um (default
-- 1.5, the 2D-2 case; 0.3 gives 2D-1, Re = 20), bodies ("immersed" or "staircase",
-- kernels.bodies; default the model's: immersed), pressure (a pressure table).
function M.simulation(o)
  local ny = o.ny
  local nx = math.floor(ny * M.L / M.H + 0.5)
  local Um = o.Um or M.Um
  local U = 2 * Um / 3
  return flow.simulation {
    grid = { nx = nx, ny = ny, lx = M.L, ly = M.H },
    fluid = { nu = M.nu },
    boundaries = {
      left = flow.inflow { u = function(y, t) return M.inflow(y, Um) end },
      right = flow.outflow(),
      bottom = flow.wall(), top = flow.wall(),
    },
    obstacles = { flow.circle { x = M.xc, y = M.yc, r = M.D / 2 } },
    initial = {
      u = function(x, y) return M.inflow(y, Um) end,
      v = function(x, y)
        local r2 = ((x - M.xc - M.D) ^ 2 + (y - M.yc) ^ 2) / (M.D * M.D)
        return (o.perturb or 0) * U * math.exp(-r2)
      end,
    },
    time = { t_end = o.t_end, cfl = o.cfl, steady = o.steady, steady_interval = o.steady_interval },
    kernels = { advection = "central", bodies = o.bodies },
    pressure = o.pressure or { solver = "rbsor", omega = 1.8, tol = 1e-4, max_iter = 500 },
  }
end

return M
