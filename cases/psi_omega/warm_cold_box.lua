-- A closed, insulated box with a cold left half and a warm right half, started at rest
-- (seed 000, sec. 5.4): warm fluid rises on the right and spreads left along the top,
-- cold fluid sinks and spreads right along the bottom, until the box is stratified.
-- Nondimensional: box side 1, kappa = 1, nu = Pr, Ra based on the temperature step.
--   flowlua cases/psi_omega/warm_cold_box.lua --set Ra=1e5
local n = param("n", 64)
local sim = flow.simulation {
  model = "psi_omega",
  grid = { nx = n, ny = n, lx = 1, ly = 1 },
  fluid = { Ra = param("Ra", 1e5), Pr = param("Pr", 0.71) },
  boundaries = {  -- walls are adiabatic (dT/dn = 0) unless told otherwise
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall(),
  },
  initial = { T = function(x, y) return x < 0.5 and 0 or 1 end },
  time = { t_end = param("t_end", 0.2), cfl = 0.9 },
}
local frame = 0
sim:every_time(0.02, function(s)
  local T, d = s:field("T"), s:diagnostics()
  print(string.format("t = %.3f  T top/bottom (x = 0.5) = %.3f %.3f  max speed %.2f  mean T %.5f", s.time,
                      T:sample(0.5, 0.95), T:sample(0.5, 0.05), d.max_speed, T:mean()))
  frame = frame + 1
  flow.write_png(T, string.format("temperature_%03d.png", frame), { colormap = "coolwarm", range = { 0, 1 } })
end)
sim:run()
flow.write_png(sim:field("T"), "temperature.png", { colormap = "coolwarm", range = { 0, 1 } })
flow.write_png(sim:field("stream"), "stream.png", { colormap = "viridis" })
