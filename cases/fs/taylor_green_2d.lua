-- The 2D Taylor-Green vortex (fractional_step model): u = sin x cos y e^{-2 nu t},
-- v = -cos x sin y e^{-2 nu t} on the periodic box [0, 2 pi]^2 is an exact solution of
-- the Navier-Stokes equations. The case runs it on three grids (h and dt halved
-- together) and prints the error against the exact decay and the ratios: 4 for
-- central fluxes (second order); about 9 for QUICK on these grids, whose O(h^3) upwind
-- error dominates until about 128^2. The kinetic energy goes to taylor_green.csv.
--   flowlua cases/fs/taylor_green_2d.lua
--   flowlua cases/fs/taylor_green_2d.lua --set n=64 --set advection=central
local n0 = param("n", 32)
local nu = param("nu", 0.01)
local t_end = param("t_end", 1.0)
local advection = param("advection", "quick")
local precision = param("precision", "double")

local csv = flow.csv("taylor_green.csv")
local errors = {}
for level = 0, 2 do
  local n = n0 * 2 ^ level
  local h = 2 * math.pi / n
  -- dt = 0.4 h (CFL 0.4), or less where AB2's diffusive limit h^2 / (8 nu) is lower
  local steps = math.ceil(t_end / math.min(0.4 * h, h * h / (10 * nu)))
  local sim = flow.simulation {
    model = "fractional_step",
    grid = { nx = n, ny = n, lx = 2 * math.pi, ly = 2 * math.pi },
    fluid = { nu = nu },
    initial = {
      u = function(x, y) return math.sin(x) * math.cos(y) end,
      v = function(x, y) return -math.cos(x) * math.sin(y) end,
    },
    advection = advection,
    precision = precision,
    time = { dt = t_end / steps, t_end = t_end },
  }
  sim:every(math.max(1, steps // 10), function(s)
    csv:row { n = n, t = s.time, kinetic_energy = s:diagnostics().kinetic_energy,
              exact = math.pi ^ 2 * math.exp(-4 * nu * s.time) }
  end)
  sim:run()
  -- Cell-centred u against the exact cell average of the face values' interpolant.
  local u = sim:field("u")
  local decay = math.exp(-2 * nu * sim.time)
  local err = 0
  for j = 1, n do
    for i = 1, n do
      local x, y = (i - 0.5) * h, (j - 0.5) * h
      -- the centred field is the mean of the two faces: sin x cos(h/2) cos y exactly
      local exact = math.sin(x) * math.cos(h / 2) * math.cos(y) * decay
      err = math.max(err, math.abs(u:get(i, j) - exact))
    end
  end
  errors[#errors + 1] = err
  print(string.format("n = %4d  dt = %.5f  steps %4d  max error of u %.4e%s", n, t_end / steps, steps, err,
                      level > 0 and string.format("  ratio %.3f", errors[level] / err) or ""))
end
print("kinetic energy in " .. flow.output_dir() .. "/taylor_green.csv")
