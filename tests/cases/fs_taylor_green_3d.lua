-- The 3D Taylor-Green vortex (Re = 1600) on 32^3 for a few steps, through the case
-- language (CI's coarse version of cases/fs/taylor_green_3d.lua):
--   * the start is discretely divergence free and stays so;
--   * the discrete energy E = 1/2 sum u^2 dV and the viscous dissipation
--     eps = nu sum |D u|^2 dV start at their exact discrete values (E = V/8, eps =
--     2 nu lambda E with lambda = 3 (2 sin(h/2) / h)^2, the MAC Laplacian's eigenvalue
--     of the vortex);
--   * with central fluxes (which conserve energy on the MAC grid) the measured
--     -dE/dt over t = 0.02 .. 0.12 is the viscous dissipation: within 0.2% of eps and
--     of the exact early-time decay 2 nu lambda E;
--   * QUICK dissipates more than that (its upwind part), but by less than a factor 3.
local n, L, nu = 32, 2 * math.pi, 1 / 1600
local function run(advection)
  local sim = flow.simulation {
    model = "fractional_step",
    grid = { nx = n, ny = n, nz = n, lx = L, ly = L, lz = L },
    fluid = { nu = nu },
    initial = {
      u = function(x, y, z) return math.sin(x) * math.cos(y) * math.cos(z) end,
      v = function(x, y, z) return -math.cos(x) * math.sin(y) * math.cos(z) end,
    },
    advection = advection,
    time = { dt = 0.002 },
  }
  local d0 = sim:diagnostics()
  sim:step(10)
  local d1 = sim:diagnostics()
  sim:step(50)
  local d2 = sim:diagnostics()
  return sim, d0, d1, d2
end

local h = L / n
local lambda = 3 * (2 * math.sin(h / 2) / h) ^ 2
local V = L ^ 3
local sim, d0, d1, d2 = run("central")
print(string.format("E0 = %.10f (exact V/8 = %.10f), eps0 = %.6e (exact %.6e)", d0.kinetic_energy, V / 8,
                    d0.dissipation, 2 * nu * lambda * V / 8))
assert(math.abs(d0.kinetic_energy - V / 8) < 1e-12 * V, "initial energy is not V/8")
assert(math.abs(d0.dissipation / (2 * nu * lambda * V / 8) - 1) < 1e-10, "initial dissipation is not 2 nu lambda E")
assert(d0.max_divergence < 1e-12 and d2.max_divergence < 1e-11, "not divergence free: " .. d2.max_divergence)

local rate = -(d2.kinetic_energy - d1.kinetic_energy) / (d2.time - d1.time)
local eps = 0.5 * (d1.dissipation + d2.dissipation)
local Emid = 0.5 * (d1.kinetic_energy + d2.kinetic_energy)
local exact = 2 * nu * lambda * Emid
print(string.format("central: -dE/dt = %.6e, mean viscous dissipation %.6e (%+.3f%%), exact early decay %.6e (%+.3f%%)",
                    rate, eps, 100 * (rate / eps - 1), exact, 100 * (rate / exact - 1)))
assert(math.abs(rate / eps - 1) < 2e-3, "the energy budget does not close with central fluxes")
assert(math.abs(rate / exact - 1) < 2e-3, "the early decay is not the exact viscous one")

local _, q0, q1, q2 = run("quick")
local qrate = -(q2.kinetic_energy - q1.kinetic_energy) / (q2.time - q1.time)
print(string.format("quick: -dE/dt = %.6e, %.2f x the viscous decay", qrate, qrate / exact))
assert(qrate > rate and qrate < 3 * exact, "QUICK's dissipation is out of bounds")
