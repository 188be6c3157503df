-- A 3D channel with a parabolic inflow and an outflow past a sphere or a box
-- (fractional_step model: QUICK, AB2, the obstacle as a staircase of flagged cells
-- with no-slip on their faces). The channel is 4 x 1 x 1 (x along the flow), walls on
-- y = 0, 1 and z = 0, 1; the inflow on x = 0 is the product of parabolas
--   u = 36 U y (1 - y) z (1 - z),  mean U
-- given as a function(y, z, t) of the side's two coordinates (and ramped up over the
-- first time unit); flow.outflow() on x = 4. The body sits 1 unit downstream, its
-- diameter (edge) D = 0.4; Re = U D / nu. The pressure solver is the one the case gets
-- without pressure.solver: multigrid (the x axis, inflow against outflow, has no FFT).
-- Writes speed and vorticity slices as PNG, the inflow and outflow flux to CSV (they
-- agree to the pressure solver's tolerance), and the 3D fields as VTK.
--   flowlua cases/fs/channel_sphere_3d.lua                       16 cells across (CPU, a minute)
--   flowlua cases/fs/channel_sphere_3d.lua --set body=box
--   flowlua cases/fs/channel_sphere_3d.lua --backend cuda --set n=64 --set Re=200 --set t_end=20
local n = param("n", 16)            -- cells across the channel
local Re = param("Re", 50)
local body = param("body", "sphere")
local t_end = param("t_end", 6)
local precision = param("precision", "double")
local png_dt = param("png_dt", 2)

local U, D, L = 1.0, 0.4, 4.0
local obstacle
if body == "sphere" then
  obstacle = flow.sphere { x = 1.2, y = 0.5, z = 0.5, r = D / 2 }
elseif body == "box" then
  obstacle = flow.box { x0 = 1.0, x1 = 1.0 + D, y0 = 0.5 - D / 2, y1 = 0.5 + D / 2, z0 = 0.5 - D / 2, z1 = 0.5 + D / 2 }
else
  error("--set body=sphere or body=box (got '" .. tostring(body) .. "')")
end

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = 4 * n, ny = n, nz = n, lx = L, ly = 1, lz = 1 },
  fluid = { nu = U * D / Re },
  boundaries = {
    left = flow.inflow { u = function(y, z, t) return 36 * U * y * (1 - y) * z * (1 - z) * math.min(t, 1) end },
    right = flow.outflow(),
    bottom = flow.wall(), top = flow.wall(), back = flow.wall(), front = flow.wall(),
  },
  obstacles = { obstacle },
  advection = "quick",
  precision = precision,
  time = { t_end = t_end, cfl = 0.5 },
}

local csv = flow.csv("fluxes.csv")
local worst = 0
local function sample(s)
  local d = s:diagnostics()
  csv:row { { "t", s.time }, { "inflow_flux", d.inflow_flux }, { "outflow_flux", d.outflow_flux },
            { "max_divergence", d.max_divergence }, { "kinetic_energy", d.kinetic_energy } }
  if s.step > 0 then worst = math.max(worst, math.abs(d.inflow_flux - d.outflow_flux)) end
end
local function slices(s)
  local tag = string.format("%06d", s.step)
  flow.write_png(s:field("speed"), "speed_z_mid_" .. tag .. ".png",
                 { slice = { z = 0.5 }, colormap = "viridis", range = { 0, 2.5 * U } })
  flow.write_png(s:field("vorticity_z"), "vorticity_z_mid_" .. tag .. ".png",
                 { slice = { z = 0.5 }, colormap = "coolwarm", range = { -10, 10 } })
end
sim:every_time(0.1, sample)
sim:every_time(png_dt, slices)
local report = sim:run()
if report.steps == 0 then return end  -- flowlua --explain: nothing ran
slices(sim)
flow.write_vtk(sim, "channel.vti")

local d = sim:diagnostics()
print(string.format("%s, Re = %g, %d x %d x %d: inflow %.6f, outflow %.6f (largest |out - in| over the run %.1e), "
                    .. "max |div u| %.1e, %d steps", body, Re, 4 * n, n, n, d.inflow_flux, d.outflow_flux, worst,
                    d.max_divergence, report.steps))
print("fluxes.csv, the slices and channel.vti in " .. flow.output_dir())
