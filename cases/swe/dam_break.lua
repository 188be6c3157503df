-- Stoker's wet-bed dam break (J. J. Stoker, Water Waves, 1957, ch. 10): a 200 m
-- channel, 2 m of water left of the dam at x = 100 m and 1 m right of it, flat bed,
-- no friction; the dam vanishes at t = 0. The exact depth is a rarefaction fan, a flat
-- middle state h_m = 1.4537 m and a bore moving right (h_m solves
-- 2 (sqrt(g h_l) - sqrt(g h_m)) = (h_m - h_r) sqrt(g (h_m + h_r) / (2 h_m h_r))).
-- The case prints the relative L1 error of h against it at t_end and writes
-- depth.csv (x, h, exact) and a picture of the depth.
--
--   flowlua cases/swe/dam_break.lua                 400 cells, t_end = 12 s
--   flowlua cases/swe/dam_break.lua --set nx=1600
local nx = param("nx", 400)
local t_end = param("t_end", 12.0)
local hl, hr, L, g = 2.0, 1.0, 200.0, 9.81
local dx = L / nx

local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = nx, ny = 4, lx = L, ly = 4 * dx },
  fluid = { gravity = g, nu = param("nu", 0.05 * dx * math.sqrt(g * hl) / 0.4 / 3) },  -- tau = 0.55
  initial = { h = function(x, y) return x < L / 2 and hl or hr end },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.periodic(), top = flow.periodic() },
  storage = param("storage", "same"),   -- "fp16": distributions stored in 16 bits (with --precision float)
  time = { t_end = t_end, cfl = 0.4 },
}

-- Stoker's solution: the middle depth by bisection, then h((x - x0) / t).
local cl = math.sqrt(g * hl)
local function f(h) return 2 * (cl - math.sqrt(g * h)) - (h - hr) * math.sqrt(g * (h + hr) / (2 * h * hr)) end
local a, b = hr, hl
for _ = 1, 100 do local m = 0.5 * (a + b); if f(m) > 0 then a = m else b = m end end
local hm = 0.5 * (a + b)
local cm, um = math.sqrt(g * hm), 2 * (cl - math.sqrt(g * hm))
local s = hm * um / (hm - hr)
local function exact(x, t)
  local w = (x - L / 2) / t
  if w <= -cl then return hl end
  if w <= um - cm then return (2 * cl - w) ^ 2 / (9 * g) end
  if w <= s then return hm end
  return hr
end

sim:on_finish(function(sm)
  local h = sm:field("h")
  local csv = flow.csv("depth.csv")
  local err, norm = 0, 0
  for i = 1, nx do
    local x = (i - 0.5) * dx
    local he = exact(x, sm.time)
    csv:row { { "x", x }, { "h", h:get(i, 1) }, { "exact", he } }
    err, norm = err + math.abs(h:get(i, 1) - he), norm + he
  end
  print(string.format("Stoker dam break, %d cells, t = %.3f s: h_m = %.4f m, relative L1 error of h = %.4f",
                      nx, sm.time, hm, err / norm))
  flow.write_png(h, "depth.png", { colormap = "viridis", range = { hr, hl } })
end)
sim:run()
