-- Laminar flow in a square duct (fractional_step model in 3D): walls on the four
-- sides x = 0, a and y = 0, b, periodic along z, driven by a uniform body force G
-- (a mean pressure gradient -dp/dz / rho). The fully developed axial velocity is
-- the series solution of nu lap w = -G with w = 0 on the walls (e.g. White, Viscous
-- Fluid Flow, sec. 3-3.3):
--   w(x, y) = 4 G a^2 / (nu pi^3) sum_{n odd} n^-3 sin(n pi x / a)
--             [1 - cosh(n pi (y - b/2) / a) / cosh(n pi b / (2 a))]
-- Prints the largest difference from it relative to the centreline value.
--   flowlua cases/fs/channel_3d.lua                    32 x 32 x 8
--   flowlua cases/fs/channel_3d.lua --set n=16 --set b=2
local n = param("n", 32)
local a, b = 1.0, param("b", 1.0)
local nu, G = param("nu", 1.0), 1.0
local nz = param("nz", 8)
local ny = math.floor(n * b / a + 0.5)

local function exact(x, y)
  local s = 0
  for k = 1, 199, 2 do
    s = s + math.sin(k * math.pi * x / a) / k ^ 3
        * (1 - math.cosh(k * math.pi * (y - b / 2) / a) / math.cosh(k * math.pi * b / (2 * a)))
  end
  return 4 * G * a * a / (nu * math.pi ^ 3) * s
end

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = n, ny = ny, nz = nz, lx = a, ly = b },
  fluid = { nu = nu, force = { 0, 0, G } },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall(),
    back = flow.periodic(), front = flow.periodic(),
  },
  pressure = { solver = param("solver", "fft") },
  time = { t_end = param("t_end", 1.5 * a * a / nu), cfl = 0.5 },
}
local report = sim:run()
if report.steps == 0 then return end

local w = sim:field("w")
local dx, dy = a / n, b / ny
local err, wmax = 0, exact(a / 2, b / 2)
for j = 1, ny do
  for i = 1, n do
    err = math.max(err, math.abs(w:get(i, j, 1) - exact((i - 0.5) * dx, (j - 0.5) * dy)))
  end
end
print(string.format("square duct %d x %d x %d: centreline w = %.6f (series %.6f), max |w - series| / w_max = %.3f%%",
                    n, ny, nz, w:sample(a / 2, b / 2, 0.5 * nz * dx), wmax, 100 * err / wmax))
flow.write_png(w:slice { z = 0.5 * nz * dx }, "duct_w.png", { colormap = "viridis" })
flow.write_vtk(sim, "duct.vti")  -- every 3D field, for ParaView
