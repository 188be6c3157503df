-- Flow over a bump (Goutal & Maurel, Proc. 2nd Workshop on Dam-Break Wave
-- Simulation, EDF HE-43/97/016/B, 1997): a 25 m channel, bed
-- z = max(0, 0.2 - 0.05 (x - 10)^2), discharge q in at the left, depth h_out at the
-- right. Subcritical (default): q = 4.42 m^2/s, h_out = 2 m. The steady depth solves
-- Bernoulli q^2 / (2 g h^2) + h + z = q^2 / (2 g h_out^2) + h_out; the case prints
-- the largest relative difference from it and writes depth.csv (x, z, h, exact).
-- The transcritical case (--set q=1.53 --set h_out=0.66) has no shock for these
-- values only when the outflow is supercritical; it is there to try.
--
--   flowlua cases/swe/bump.lua                      100 cells, t_end = 200 s
local nx = param("nx", 100)
local q = param("q", 4.42)
local h_out = param("h_out", 2.0)
local t_end = param("t_end", 200)
local L, g = 25.0, 9.81
local dx = L / nx
local function z(x) return math.max(0, 0.2 - 0.05 * (x - 10) ^ 2) end
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = nx, ny = 2, lx = L, ly = 2 * dx },
  fluid = { gravity = g, nu = param("nu", 0.02) },
  bed = function(x, y) return z(x) end,
  initial = { eta = h_out, u = function(x, y) return q / (h_out - z(x)) end },
  boundaries = { left = flow.inflow { q = q }, right = flow.outflow { h = h_out },
                 bottom = flow.periodic(), top = flow.periodic() },
  collision = param("collision", "bgk"),
  time = { t_end = t_end },
}
sim:on_finish(function(s)
  local h = s:field("h")
  local E = q * q / (2 * g * h_out * h_out) + h_out
  local csv = flow.csv("depth.csv")
  local worst = 0
  for i = 1, nx do
    local x = (i - 0.5) * dx
    local he = h_out
    for _ = 1, 50 do he = he - (q * q / (2 * g * he * he) + he + z(x) - E) / (1 - q * q / (g * he ^ 3)) end
    worst = math.max(worst, math.abs(h:get(i, 1) - he) / he)
    csv:row { { "x", x }, { "z", z(x) }, { "h", h:get(i, 1) }, { "exact", he } }
  end
  print(string.format("bump, q = %g, h_out = %g, %d cells, t = %.1f s: largest relative depth difference from Bernoulli %.3g",
                      q, h_out, nx, s.time, worst))
  flow.write_png(s:field("eta"), "eta.png", { colormap = "viridis" })
end)
sim:run()
