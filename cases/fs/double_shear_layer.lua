-- The double shear layer of Bell, Colella & Glaz (J. Comput. Phys. 85, 1989, sec. 5):
-- on the periodic unit square, u = tanh((y - 1/4) / rho) for y <= 1/2 and
-- tanh((3/4 - y) / rho) above, v = delta sin(2 pi (x + 1/4)), rho = 1/30 ("thick"),
-- delta = 0.05, nu = 1e-4. Each layer rolls up into one vortex; BCG show the vorticity
-- at t = 0.8 and 1.0 (thin layers, rho = 1/80, give spurious extra vortices on coarse
-- grids). Writes vorticity pictures and the kinetic energy and enstrophy to CSV.
--   flowlua cases/fs/double_shear_layer.lua                 128^2, rho = 1/30
--   flowlua cases/fs/double_shear_layer.lua --set n=256 --set rho=0.0125
local n = param("n", 128)
local rho = param("rho", 1 / 30)
local delta = param("delta", 0.05)
local nu = param("nu", 1e-4)
local t_end = param("t_end", 1.0)
local advection = param("advection", "quick")

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = n, ny = n, lx = 1, ly = 1 },
  fluid = { nu = nu },
  initial = {
    u = function(x, y)
      if y <= 0.5 then return math.tanh((y - 0.25) / rho) end
      return math.tanh((0.75 - y) / rho)
    end,
    v = function(x, y) return delta * math.sin(2 * math.pi * (x + 0.25)) end,
  },
  advection = advection,
  time = { t_end = t_end, cfl = 0.5 },
}

local csv = flow.csv("double_shear_layer.csv")
local function record(s)
  local w = s:field("vorticity")
  local d = s:diagnostics()
  csv:row { t = s.time, kinetic_energy = d.kinetic_energy, enstrophy = 0.5 * w:norm() ^ 2,
            max_vorticity = math.max(-w:min(), w:max()), max_divergence = d.max_divergence }
end
record(sim)
sim:every_time(0.05, record)
sim:every_time(0.2, flow.png { field = "vorticity", file = "vorticity_%06d.png", colormap = "coolwarm",
                               range = { -40, 40 } })
sim:run()
local w = sim:field("vorticity")
print(string.format("t = %.3f after %d steps: vorticity in [%.2f, %.2f], kinetic energy %.6f",
                    sim.time, sim.step, w:min(), w:max(), sim:diagnostics().kinetic_energy))
print("pictures and double_shear_layer.csv in " .. flow.output_dir())
