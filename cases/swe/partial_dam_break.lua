-- Partial dam break (Fennema & Chaudhry, J. Hydraul. Res. 28 (1990) 699): a 200 m
-- square basin with walls, a 10 m thick dam at x = 95..105 m with a 75 m breach at
-- y = 95..170 m (bounce-back obstacles), 10 m of water upstream and 5 m downstream,
-- flat frictionless bed. The case writes the depth at t = 7.2 s (the reference
-- time of the benchmark) and gauges up- and downstream of the breach.
--
--   flowlua cases/swe/partial_dam_break.lua                 100 x 100 (2 m cells)
--   flowlua cases/swe/partial_dam_break.lua --set n=400
local n = param("n", 100)
local t_end = param("t_end", 7.2)
local L, g = 200.0, 9.81
local dx = L / n
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = n, ny = n, lx = L, ly = L },
  fluid = { gravity = g, nu = param("nu", 0.1 * dx * math.sqrt(g * 10) / 0.35 / 3) },  -- tau = 0.6
  initial = { h = function(x, y) return x < 100 and 10.0 or 5.0 end },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.rect { x0 = 95, y0 = 0, x1 = 105, y1 = 95 }, flow.rect { x0 = 95, y0 = 170, x1 = 105, y1 = 200 } },
  collision = "trt",
  time = { t_end = t_end, cfl = 0.35 },
}
local csv = flow.csv("gauges.csv")
sim:every(5, function(s)
  local h = s:field("h")
  local function at(x, y) return h:get(math.floor(x / dx) + 1, math.floor(y / dx) + 1) end
  csv:row { { "t", s.time }, { "h_upstream", at(80, 130) }, { "h_downstream", at(130, 130) } }
end)
local v0 = sim:diagnostics().volume
sim:on_finish(function(s)
  local d = s:diagnostics()
  print(string.format("partial dam break, %d x %d, t = %.2f s: max speed %.3f m/s, max Froude %.3f, volume change %.2g",
                      n, n, s.time, d.max_speed, d.max_froude, (d.volume - v0) / v0))
  flow.write_png(s:field("h"), "depth.png", { colormap = "viridis", range = { 4, 10 } })
  flow.write_png(s:field("speed"), "speed.png", { colormap = "viridis" })
end)
sim:run()
