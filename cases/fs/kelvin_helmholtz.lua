-- Kelvin-Helmholtz instability of a tanh shear layer (fractional_step model, seed 004's
-- test case in 2D), with the linear growth rate measured against Michalke (1964):
-- sigma = 0.1897 U / delta for the most unstable wavenumber k delta = 0.4449
-- (inviscid). The box holds one wavelength in x and two layers of opposite sign in y
-- (flowlua.shear_layer); the Fourier mode 1 of v grows as exp(sigma t) once the
-- initial transient has passed.
--   flowlua cases/fs/kelvin_helmholtz.lua                  128 x 256, Re = U delta / nu = 4000
--   flowlua cases/fs/kelvin_helmholtz.lua --set nx=64 --set Re=1000 --set advection=central
local kh = require("flowlua.shear_layer")
local nx = param("nx", 128)
local Re = param("Re", 4000)
local advection = param("advection", "quick")
local t_end = param("t_end", 40)
-- The linear phase: the initial transient is over by t = 8 and the amplitude stays
-- below 1e-3 U until t = 25 (eps = 1e-5).
local fit_from, fit_to = param("fit_from", 8), param("fit_to", 25)

local delta, U = 1.0, 1.0
local lx = 2 * math.pi * delta / kh.michalke_k
local ly = 2 * lx

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = nx, ny = 2 * nx, lx = lx, ly = ly },
  fluid = { nu = U * delta / Re },
  initial = kh.initial { U = U, delta = delta, lx = lx, ly = ly, eps = 1e-5 },
  advection = advection,
  time = { t_end = t_end, cfl = 0.5 },
}

local samples = {}
local csv = flow.csv("growth.csv")
sim:every_time(0.5, function(s)
  local a = kh.mode_amplitude(s, lx)
  samples[#samples + 1] = { s.time, a }
  csv:row { t = s.time, amplitude = a }
end)
sim:every_time(10, flow.png { field = "vorticity", file = "vorticity_%06d.png", colormap = "coolwarm" })
local report = sim:run()
if report.steps == 0 then return end  -- flowlua --explain: nothing ran, nothing to fit

local rate = kh.fit_rate(samples, fit_from, fit_to) * delta / U
print(string.format("measured growth rate %.4f U/delta (fit over t = %g..%g); Michalke (inviscid): %.4f; "
                    .. "difference %.2f%%", rate, fit_from, fit_to, kh.michalke_rate,
                    100 * (rate - kh.michalke_rate) / kh.michalke_rate))
flow.write_png(sim:field("vorticity"), "vorticity_final.png", { colormap = "coolwarm" })
print("pictures and growth.csv in " .. flow.output_dir())
