-- A lake at rest over a bumpy bed: the surface eta = h + z = 1 m is flat, the water
-- still, the basin closed. The bed-slope force (Zhou's centred scheme with the
-- equilibrium's weights, engine/models/lbm_swe/stream_collide.hpp) balances the
-- pressure term exactly, so the water must stay still: the case prints the largest
-- speed after `steps` steps (double: about 1e-14 m/s; float: about 1e-6 m/s) and
-- writes the bed and the surface.
--
--   flowlua cases/swe/lake_at_rest.lua                      64 x 64, 10000 steps
--   flowlua cases/swe/lake_at_rest.lua --precision float
local n = param("n", 64)
local steps = param("steps", 10000)
local L = 64.0
local function z(x, y)
  return 0.4 * math.exp(-((x - 20) ^ 2 + (y - 40) ^ 2) / 60) + 0.3 * math.exp(-((x - 44) ^ 2 + (y - 20) ^ 2) / 30)
         + 0.05 * math.sin(x / 3) * math.cos(y / 4)
end
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = n, ny = n, lx = L, ly = L },
  fluid = { gravity = 9.81, nu = 0.05 },
  bed = z,
  initial = { eta = 1.0 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  storage = param("storage", "same"),   -- "fp16" (with --precision float): 16-bit distributions
  time = { steps = steps },
}
local csv = flow.csv("lake.csv")
sim:every(math.max(1, steps // 10), function(s)
  local d = s:diagnostics()
  csv:row { { "step", s.step }, { "t", s.time }, { "max_speed", d.max_speed }, { "volume", d.volume } }
end)
local v0 = sim:diagnostics().volume
sim:on_finish(function(s)
  local d = s:diagnostics()
  print(string.format("lake at rest, %d x %d, %d steps: largest speed %.3g m/s, volume change %.3g (relative)",
                      n, n, s.step, d.max_speed, (d.volume - v0) / v0))
  flow.write_png(s:field("bed"), "bed.png", { colormap = "viridis" })
  flow.write_png(s:field("eta"), "eta.png", { colormap = "coolwarm", range = { 1 - 1e-6, 1 + 1e-6 } })
end)
sim:run()
