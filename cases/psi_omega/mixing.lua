-- Two inflows of different temperature meeting in a channel (seed 000, sec. 5.3): warm
-- fluid (T = 1) enters through the left side, cold fluid (T = 0) through a slot in the
-- bottom wall, both with parabolic profiles; the mixture leaves through the right side.
-- Walls are adiabatic. Nondimensional: channel height 1, peak inflow speed 1.
--   flowlua cases/psi_omega/mixing.lua --set Re=50 --set Pr=1
local L, nx, ny = 5.0, param("nx", 160), param("ny", 32)
local slot0, slot1 = 1.0, 1.5  -- the bottom inlet
local function parabola(s, a, b)
  if s <= a or s >= b then return 0 end
  return 4 * (s - a) * (b - s) / ((b - a) * (b - a))
end
local sim = flow.simulation {
  model = "psi_omega",
  grid = { nx = nx, ny = ny, lx = L, ly = 1 },
  fluid = { Re = param("Re", 50), Pr = param("Pr", 1) },  -- reference velocity 1, length 1
  boundaries = {
    -- the warm inflow heats up from T = 0 to 1 over the first time unit (a T function of (s, t))
    left = flow.inflow { u = function(y) return parabola(y, 0, 1) end, T = flow.dirichlet(function(y, t) return math.min(1, t) end) },
    bottom = flow.inflow { v = function(x) return parabola(x, slot0, slot1) end, T = flow.dirichlet(0) },
    right = flow.outflow(),
    top = flow.wall { T = flow.neumann(0) },
  },
  time = { t_end = param("t_end", 10), cfl = 0.9 },
}
sim:every_time(2, function(s)
  local T = s:field("T")
  print(string.format("t = %5.2f  outlet T bottom/middle/top = %.3f %.3f %.3f", s.time, T:sample(0.98 * L, 0.1),
                      T:sample(0.98 * L, 0.5), T:sample(0.98 * L, 0.9)))
end)
sim:run()
flow.write_png(sim:field("T"), "temperature.png", { colormap = "coolwarm", range = { 0, 1 } })
flow.write_png(sim:field("stream"), "stream.png", { colormap = "viridis" })
