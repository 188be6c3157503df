-- Seed 004's case: a Kelvin-Helmholtz shear layer in a periodic 256^3 box
-- (fractional_step model, QUICK, AB2, FFT pressure). The seed gives no domain size,
-- Reynolds number or perturbation (docs/validation.md); flowlua's choice: the box is one
-- wavelength of the most unstable mode of a tanh layer (k delta = 0.4449, Michalke
-- 1964) in x and y and z, two layers of opposite sign in y (flowlua.shear_layer), the
-- single 2D mode with amplitude eps plus a spanwise modulation of it (so the rollers
-- bend and the flow goes 3D), Re = U delta / nu = 1000. Prints the growth rate of the
-- 2D mode in the linear phase, and writes vorticity slices as PNG.
--   flowlua cases/fs/kelvin_helmholtz_3d.lua --backend cuda --set n=256     (the seed's grid, on the GPU)
--   flowlua cases/fs/kelvin_helmholtz_3d.lua --set t_end=20                 (64^3: CPU, a coarse look)
local kh = require("flowlua.shear_layer")
local n = param("n", 64)  -- the seed ran 256^3: --set n=256 (GPU; the CPU backend needs hours)
local Re = param("Re", 1000)
local t_end = param("t_end", 60)
local eps = param("eps", 1e-3)
local precision = param("precision", "float")
local png_dt = param("png_dt", 5)
local fit_from, fit_to = param("fit_from", 8), param("fit_to", 20)

local delta, U = 1.0, 1.0
local L = 2 * math.pi * delta / kh.michalke_k
local layer = kh.initial { U = U, delta = delta, lx = L, ly = L, eps = eps }
local kz = 2 * math.pi / L
local y1, y2 = L / 4, 3 * L / 4
local function g(y) return math.exp(-((y - y1) / (2 * delta)) ^ 2) + math.exp(-((y - y2) / (2 * delta)) ^ 2) end

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = n, ny = n, nz = n, lx = L, ly = L, lz = L },
  fluid = { nu = U * delta / Re },
  initial = {
    u = function(x, y, z) return layer.u(x, y) end,
    -- the 2D mode, modulated along z by 10%: the initial projection makes it divergence free
    v = function(x, y, z) return layer.v(x, y) * (1 + 0.1 * math.cos(kz * z)) end,
    w = function(x, y, z) return 0.1 * eps * U * math.sin(kz * z) * g(y) end,
  },
  advection = "quick",
  precision = precision,
  time = { t_end = t_end, cfl = param("cfl", 0.5) },
}

-- The x-Fourier mode 1 of v in the mid-z plane, largest over y.
local function amplitude(s)
  local v = s:field("v"):slice { z = L / 2 }
  local nx, ny = v.nx, v.ny
  local best = 0
  for j = 1, ny do
    local c, sn = 0, 0
    for i = 1, nx do
      local x = (i - 0.5) * L / nx
      c = c + v:get(i, j) * math.cos(kz * x)
      sn = sn + v:get(i, j) * math.sin(kz * x)
    end
    best = math.max(best, 2 / nx * math.sqrt(c * c + sn * sn))
  end
  return best
end

local samples = {}
local csv = flow.csv("kh3d.csv")
sim:every_time(0.5, function(s)
  local d = s:diagnostics()
  local a = amplitude(s)
  samples[#samples + 1] = { s.time, a }
  csv:row { { "t", s.time }, { "amplitude", a }, { "kinetic_energy", d.kinetic_energy },
            { "max_divergence", d.max_divergence } }
end)
local function slices(s)
  local tag = string.format("%06d", s.step)
  flow.write_png(s:field("vorticity"), "vorticity_z_mid_" .. tag .. ".png", { slice = { z = L / 2 }, colormap = "viridis" })
  flow.write_png(s:field("vorticity"), "vorticity_y_layer_" .. tag .. ".png", { slice = { y = y1 }, colormap = "viridis" })
end
slices(sim)
sim:every_time(png_dt, slices)
local report = sim:run()
if report.steps == 0 then return end
slices(sim)
if t_end >= fit_to then
  local rate = kh.fit_rate(samples, fit_from, fit_to) * delta / U
  print(string.format("growth rate of the 2D mode %.4f U/delta (t = %g..%g); Michalke (inviscid) %.4f",
                      rate, fit_from, fit_to, kh.michalke_rate))
end
print(string.format("%d^3, %d steps; pictures and kh3d.csv in %s", n, report.steps, flow.output_dir()))
