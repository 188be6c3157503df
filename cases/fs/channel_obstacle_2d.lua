-- A 2D channel past a square obstacle (fractional_step model): a parabolic inflow
-- (mean U) on the left, flow.outflow() on the right, walls top and bottom, a square
-- of edge D = H / 4 on the centre line; Re = U D / nu. Above Re of about 60 the wake
-- sheds vortices. The obstacle is a staircase of flagged cells (no-slip on their
-- faces), as in the projection model, whose steady state this model reproduces with
-- central fluxes (case.fs_channel_obstacle_vs_projection). Writes vorticity pictures,
-- the inflow and outflow flux and the transverse velocity behind the square (its
-- oscillation is the shedding) to CSV.
--   flowlua cases/fs/channel_obstacle_2d.lua                    Re = 100, 160 x 32
--   flowlua cases/fs/channel_obstacle_2d.lua --set Re=30        (a steady wake)
local n = param("n", 32)  -- cells across the channel
local Re = param("Re", 100)
local t_end = param("t_end", 30)
local advection = param("advection", "quick")
local H, U = 1.0, 1.0
local D, L = H / 4, 5.0

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = 5 * n, ny = n, lx = L, ly = H },
  fluid = { nu = U * D / Re },
  boundaries = {
    left = flow.inflow { u = function(y, t) return 6 * U * y * (H - y) / H ^ 2 end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  obstacles = { flow.rect { x0 = 1.0, y0 = (H - D) / 2, x1 = 1.0 + D, y1 = (H + D) / 2 } },
  advection = advection,
  time = { t_end = t_end, cfl = 0.5 },
}

local csv = flow.csv("channel.csv")
sim:every_time(0.05, function(s)
  local d = s:diagnostics()
  csv:row { { "t", s.time }, { "inflow_flux", d.inflow_flux }, { "outflow_flux", d.outflow_flux },
            { "v_wake", s:field("v"):sample(1.0 + 3 * D, H / 2) } }
end)
sim:every_time(5, function(s)
  flow.write_png(s:field("vorticity"), string.format("vorticity_%06d.png", s.step),
                 { colormap = "coolwarm", range = { -20, 20 } })
end)
local report = sim:run()
if report.steps == 0 then return end
local d = sim:diagnostics()
print(string.format("Re = %g, %d x %d, %s: inflow %.6f, outflow %.6f, max |div u| %.1e, %d steps", Re, 5 * n, n,
                    advection, d.inflow_flux, d.outflow_flux, d.max_divergence, report.steps))
print("channel.csv and the pictures in " .. flow.output_dir())
