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
local bodies = param("bodies", nil)  -- "staircase" or "immersed"; left out: the model's default (immersed)
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
                    sim.nx, sim.ny, D / sim.dx, bodies or "immersed (the default)"))
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
-- dp and L_a from the cell-centre values near the line y = yc, which lies between two
-- rows of cells (ny a multiple of 41 puts the cylinder's centre and its front and back
-- points on grid nodes): each value on the line by cubic interpolation across four
-- rows, so that the stagnation pressure's and the wake's curvature across the line
-- (largest where these values are read) do not bias them by O(h^2) with a large
-- constant. At 41 cells the plain readings (bilinear samples, linear extrapolation
-- from h and 2h) were 1% low in dp and 3% short in L_a against these
-- (docs/validation.md).
local h = sim.dx
local j0 = math.floor(cyl.yc / h + 0.5)  -- rows j0 and j0 + 1 lie either side of y = yc
local function on_line(get, i)
  return (-get(i, j0 - 1) + 9 * get(i, j0) + 9 * get(i, j0 + 1) - get(i, j0 + 2)) / 16
end
-- Pressure on the surface at the front (0.15, 0.2) and back (0.25, 0.2), both grid
-- nodes: cubic extrapolation from the four cell centres at (k - 1/2) h out, k = 1..4.
local p = sim:field("p")
local function pget(i, j) return p:get(i, j) end
local function surface_p(node, dir)  -- dir -1: cells before the node, +1: after it
  local q = {}
  for k = 1, 4 do q[k] = on_line(pget, dir < 0 and node - k + 1 or node + k) end
  return (35 * q[1] - 35 * q[2] + 21 * q[3] - 5 * q[4]) / 16
end
local dp = surface_p(math.floor((cyl.xc - D / 2) / h + 0.5), -1) - surface_p(math.floor((cyl.xc + D / 2) / h + 0.5), 1)
-- Recirculation: the first sign change of u from - to + on y = 0.2 behind the cylinder.
-- A cell's u is the mean of its two faces: less a/8 of its second difference along x
-- it is the value at the centre; the root is found on the cubic through four columns.
local u = sim:field("u")
local function uget(i, j)
  local c = u:get(i, j)
  if i <= 1 or i >= sim.nx then return c end
  return c - (u:get(i + 1, j) - 2 * c + u:get(i - 1, j)) / 8
end
local xr
local i = math.floor((cyl.xc + D / 2) / h + 0.5) + 1  -- the first column behind the back point
while i < sim.nx - 2 and not xr do
  if on_line(uget, i) < 0 and on_line(uget, i + 1) >= 0 then
    local q = { on_line(uget, i - 1), on_line(uget, i), on_line(uget, i + 1), on_line(uget, i + 2) }
    local function cubic(s)  -- s in cells from the centre of column i - 1
      return -(s - 1) * (s - 2) * (s - 3) / 6 * q[1] + s * (s - 2) * (s - 3) / 2 * q[2]
             - s * (s - 1) * (s - 3) / 2 * q[3] + s * (s - 1) * (s - 2) / 6 * q[4]
    end
    local lo, hi = 1, 2
    for _ = 1, 60 do
      local m = 0.5 * (lo + hi)
      if cubic(m) < 0 then lo = m else hi = m end
    end
    xr = (i - 1.5 + lo) * h
  end
  i = i + 1
end
local La = xr and (xr - (cyl.xc + D / 2)) or 0 / 0
print("                 value      Schäfer & Turek (1996)")
print(string.format("cd             %8.5f    5.5700 .. 5.5900   (pressure %.5f, viscous %.5f; %s)", f.cd,
                    f.cd_pressure, f.cd_viscous, f.method))
print(string.format("cl             %8.5f    0.0104 .. 0.0110", f.cl))
print(string.format("dp             %8.5f    0.1172 .. 0.1176", dp))
print(string.format("L_a            %8.5f    0.0842 .. 0.0852", La))
local d = sim:diagnostics()
if d.body_inflow then
  print(string.format("flow into the body %.2e (of %.4f across its diameter upstream)", d.body_inflow, Um * D))
end
