-- The 3D Taylor-Green vortex at Re = 1600 (fractional_step model): the standard test of
-- transition to turbulence. u = sin x cos y cos z, v = -cos x sin y cos z, w = 0 on
-- [0, 2 pi]^3, periodic; V0 = L = 1, nu = 1 / Re. Writes the volume-averaged kinetic
-- energy E, its dissipation rate -dE/dt (central differences of E between samples)
-- and the viscous part nu <|grad u|^2> to taylor_green_3d.csv, and prints the peak of
-- -dE/dt against the 512^3 pseudo-spectral reference (1.28575e-2 at t = 8.97;
-- docs/validation.md gives the source). Vorticity slices as PNG.
--   flowlua cases/fs/taylor_green_3d.lua                        64^3, t_end = 20 (CPU: hours)
--   flowlua cases/fs/taylor_green_3d.lua --set n=256 --set precision=float   (the GPU run)
--   flowlua cases/fs/taylor_green_3d.lua --set n=32 --set t_end=1            (a quick look)
local n = param("n", 64)
local Re = param("Re", 1600)
local t_end = param("t_end", 20)
local advection = param("advection", "quick")
local precision = param("precision", "double")
local sample_dt = param("sample_dt", 0.1)
local png_dt = param("png_dt", 2)
local L = 2 * math.pi

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = n, ny = n, nz = n, lx = L, ly = L, lz = L },
  fluid = { nu = 1 / Re },
  initial = {
    u = function(x, y, z) return math.sin(x) * math.cos(y) * math.cos(z) end,
    v = function(x, y, z) return -math.cos(x) * math.sin(y) * math.cos(z) end,
  },
  advection = advection,
  precision = precision,
  time = { t_end = t_end, cfl = param("cfl", 0.5) },
}

local volume = L * L * L
local csv = flow.csv("taylor_green_3d.csv")
local last_t, last_E
local peak, peak_t = 0, 0
local function sample(s)
  local d = s:diagnostics()
  local E = d.kinetic_energy / volume
  local row = { { "t", s.time }, { "E", E }, { "viscous_dissipation", d.dissipation / volume } }
  if last_t and s.time > last_t then
    local rate = -(E - last_E) / (s.time - last_t)
    local tm = 0.5 * (s.time + last_t)
    row[#row + 1] = { "t_mid", tm }
    row[#row + 1] = { "minus_dEdt", rate }
    if rate > peak then peak, peak_t = rate, tm end
  else
    row[#row + 1] = { "t_mid", "" }
    row[#row + 1] = { "minus_dEdt", "" }
  end
  csv:row(row)
  last_t, last_E = s.time, E
end
sample(sim)
sim:every_time(sample_dt, sample)
local function slices(s)
  local tag = string.format("%06d", s.step)
  flow.write_png(s:field("vorticity"), "vorticity_x0_" .. tag .. ".png",
                 { slice = { x = 0 }, colormap = "viridis", range = { 0, 10 } })
  flow.write_png(s:field("vorticity_z"), "vorticity_z_mid_" .. tag .. ".png",
                 { slice = { z = L / 2 }, colormap = "coolwarm", range = { -10, 10 } })
end
slices(sim)
sim:every_time(png_dt, slices)
local report = sim:run()
if report.steps == 0 then return end  -- flowlua --explain: nothing ran
slices(sim)

local ref, ref_t = 1.28575e-2, 8.97
print(string.format("%d^3 %s %s: peak -dE/dt = %.5e at t = %.2f; reference (512^3 spectral) %.5e at t = %.2f: "
                    .. "%+.2f%%", n, advection, precision, peak, peak_t, ref, ref_t, 100 * (peak - ref) / ref))
print(string.format("final E = %.6e, max |div u| = %.2e; %d steps", last_E, sim:diagnostics().max_divergence,
                    report.steps))
print("taylor_green_3d.csv and the slices in " .. flow.output_dir())
