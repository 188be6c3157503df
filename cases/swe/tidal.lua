-- Tidal flow over an irregular bed (Bermudez & Vazquez, Comput. Fluids 23 (1994)
-- 1049; used by Zhou, Comput. Methods Appl. Mech. Engrg. 191 (2002) 3527): a 14 km
-- channel, bed z = 10 + 40 x/L + 10 sin(pi (4x/L - 1/2)), still water h = 60.5 - z at
-- t = 0, the tide h(0, t) = 64.5 - 4 sin(pi (4t/86400 + 1/2)) at the left end
-- (flow.outflow{ h = function(t) }), a wall at the right. The asymptotic solution
--   u = pi (x - L) / (5400 h) cos(pi (4t/86400 + 1/2))
-- is compared with the velocity at t_end (default 9117.5 s, Zhou's figure); the case
-- writes velocity.csv (x, u, u_asymptotic) and gauges.
--
--   flowlua cases/swe/tidal.lua                      200 cells (dx = 70 m)
local nx = param("nx", 200)
local t_end = param("t_end", 9117.5)
local L = 14000.0
local dx = L / nx
local function z(x) return 10 + 40 * x / L + 10 * math.sin(math.pi * (4 * x / L - 0.5)) end
local function tide(t) return 64.5 - 4 * math.sin(math.pi * (4 * t / 86400 + 0.5)) end
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = nx, ny = 2, lx = L, ly = 2 * dx },
  fluid = { gravity = 9.81, nu = param("nu", 10.0) },
  bed = function(x, y) return z(x) end,
  initial = { h = function(x, y) return 60.5 - z(x) end },
  -- the depth of the first cell: the tide's surface over that cell's bed
  boundaries = { left = flow.outflow { h = function(t) return tide(t) - z(0.5 * dx) end }, right = flow.wall(),
                 bottom = flow.periodic(), top = flow.periodic() },
  collision = "trt",
  time = { t_end = t_end, cfl = 0.5 },
}
local gauges = flow.csv("gauges.csv")
sim:every(50, function(s)
  local h = s:field("h")
  gauges:row { { "t", s.time }, { "eta_0", h:get(1, 1) + z(0.5 * dx) }, { "eta_mid", h:get(nx // 2, 1) + z(L / 2) } }
end)
sim:on_finish(function(s)
  local u, h = s:field("u"), s:field("h")
  local ph = math.pi * (4 * s.time / 86400 + 0.5)
  local csv = flow.csv("velocity.csv")
  local err, umax = 0, 0
  for i = 1, nx do
    local x = (i - 0.5) * dx
    local ua = math.pi * (x - L) / (5400 * (64.5 - z(x) - 4 * math.sin(ph))) * math.cos(ph)
    csv:row { { "x", x }, { "u", u:get(i, 1) }, { "u_asymptotic", ua }, { "h", h:get(i, 1) } }
    err, umax = math.max(err, math.abs(u:get(i, 1) - ua)), math.max(umax, math.abs(ua))
  end
  print(string.format("tidal flow, %d cells, t = %.1f s: max |u - u_asymptotic| = %.3g m/s (%.2f%% of max |u| = %.3f m/s)",
                      nx, s.time, err, 100 * err / umax, umax))
  flow.write_png(s:field("eta"), "eta.png", { colormap = "viridis" })
end)
sim:run()
