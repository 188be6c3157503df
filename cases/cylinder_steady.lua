-- The DFG benchmark "2D-1" of Schäfer & Turek (1996, see cases/cylinder.lua): the same
-- channel and cylinder, Um = 0.3 (mean U = 0.2), Re = U D / nu = 20, a steady flow.
-- Printed against the benchmark's bands: drag and lift coefficients cd, cl = 2 F /
-- (rho U^2 D) from sim:forces (a momentum balance over a box around the cylinder), the
-- pressure difference dp = p(0.15, 0.2) - p(0.25, 0.2) between the front and back of the
-- cylinder (each extrapolated to the surface from the fluid), and the length of the
-- recirculation zone L_a = x_r - 0.25 (where u changes sign on y = 0.2 behind it).
--
--   flowlua cases/cylinder_steady.lua                     ny = 82 (D = 20 cells), t = 0..10
--   flowlua cases/cylinder_steady.lua --set ny=164        the next grid
--   flowlua cases/cylinder_steady.lua --set bodies=staircase   the cylinder as cells
--
-- Measured numbers: docs/validation.md ("Cylinder in a channel").
local cyl = require("flowlua.cylinder")
local ny = param("ny", 82)
local bodies = param("bodies", "immersed")
local t_end = param("t_end", 10)  -- cd changes by < 1e-4 after t = 8 (ny = 41 and 82)
local Um = 0.3
local report_every = param("report_every", 2.0)
local cfl = param("cfl", 0.8)
local steady = param("steady", 0)  -- > 0: also stop when steady (time.steady; slow here)
if steady <= 0 then steady = nil end
local U, D = 2 * Um / 3, cyl.D
local sim = cyl.simulation {
  ny = ny, Um = Um, t_end = t_end, cfl = cfl, steady = steady, bodies = bodies,
  pressure = { solver = "multigrid", tol = 1e-8, max_iter = 200 },
}
print(string.format("cylinder 2D-1 (Re = %g), grid %d x %d, D = %.0f cells, bodies: %s", U * D / cyl.nu,
                    sim.nx, sim.ny, D / sim.dx, bodies))
sim:every_time(report_every, function(s)
  local f = s:forces(1, { U = U, L = D })
  local d = s:diagnostics()
  print(string.format("t = %5.1f  step %6d  cd %.5f  cl %.5f  pressure iterations %d", s.time, s.step, f.cd, f.cl,
                      d.pressure_iterations))
  io.stdout:flush()
end)
local report = sim:run()
print(string.format("stopped (%s) at t = %.2f after %d steps, %.1f s wall", report.reason, sim.time, sim.step,
                    report.wall))

local f = sim:forces(1, { U = U, L = D })
-- Pressure on the surface at the front (0.15, 0.2) and back (0.25, 0.2): linear
-- extrapolation from one and two cells into the fluid.
local p = sim:field("p")
local h = sim.dx
local function surface_p(x, dir)
  return 2 * p:sample(x + dir * h, cyl.yc) - p:sample(x + 2 * dir * h, cyl.yc)
end
local dp = surface_p(cyl.xc - D / 2, -1) - surface_p(cyl.xc + D / 2, 1)
-- Recirculation: the first sign change of u from - to + on y = 0.2 behind the cylinder.
local u = sim:field("u")
local xr
local x0 = cyl.xc + D / 2 + 0.5 * h
local prev = u:sample(x0, cyl.yc)
local x = x0
while x < cyl.L - h do
  local xn = x + 0.25 * h
  local un = u:sample(xn, cyl.yc)
  if prev < 0 and un >= 0 then
    xr = x + (xn - x) * prev / (prev - un)
    break
  end
  x, prev = xn, un
end
local La = xr and (xr - (cyl.xc + D / 2)) or 0 / 0
print("                 value      Schäfer & Turek (1996)")
print(string.format("cd             %8.5f    5.5700 .. 5.5900   (pressure %.5f, viscous %.5f; %s)", f.cd,
                    f.cd_pressure, f.cd_viscous, f.method))
print(string.format("cl             %8.5f    0.0104 .. 0.0110", f.cl))
print(string.format("dp             %8.5f    0.1172 .. 0.1176", dp))
print(string.format("L_a            %8.5f    0.0842 .. 0.0852", La))
