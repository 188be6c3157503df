-- Laminar flow in a square duct (fractional_step model in 3D, walls in x and y,
-- periodic in z, driven by fluid.force): after 1.5 diffusion times the axial velocity
-- is within 1% of the series solution (cases/fs/channel_3d.lua) on a 16 x 16 cross
-- section, for the FFT (cosine transforms) and multigrid pressure solves and with
-- Crank-Nicolson diffusion at 30 times the explicit time-step limit; the
-- transverse velocity stays at round-off.
local n, a, nu, G = 16, 1.0, 1.0, 1.0
local function exact(x, y)
  local s = 0
  for k = 1, 199, 2 do
    s = s + math.sin(k * math.pi * x / a) / k ^ 3
        * (1 - math.cosh(k * math.pi * (y - a / 2) / a) / math.cosh(k * math.pi / 2))
  end
  return 4 * G * a * a / (nu * math.pi ^ 3) * s
end
local wmax = exact(a / 2, a / 2)
assert(math.abs(wmax - 0.0736713) < 1e-6, "series: centreline value " .. wmax)  -- 0.07367 G a^2 / nu (White)
-- explicit diffusion with the FFT and multigrid pressure solves, and Crank-Nicolson
-- diffusion with dt = 0.01, 30 times AB2's diffusive limit: the same steady state
for _, run in ipairs { { "fft", "explicit" }, { "multigrid", "explicit" }, { "fft", "crank_nicolson" } } do
  local solver, diffusion = run[1], run[2]
  local sim = flow.simulation {
    model = "fractional_step",
    grid = { nx = n, ny = n, nz = 4, lx = a, ly = a },
    fluid = { nu = nu, force = { 0, 0, G } },
    boundaries = {
      left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall(),
      back = flow.periodic(), front = flow.periodic(),
    },
    pressure = { solver = solver },
    diffusion = diffusion,
    time = diffusion == "explicit" and { t_end = 1.5, cfl = 0.5 } or { t_end = 1.5, dt = 0.01 },
  }
  sim:run()
  local w, u = sim:field("w"), sim:field("u")
  local err, h = 0, a / n
  for k = 1, 4 do
    for j = 1, n do
      for i = 1, n do
        err = math.max(err, math.abs(w:get(i, j, k) - exact((i - 0.5) * h, (j - 0.5) * h)))
      end
    end
  end
  local umax = math.max(math.abs(u:min()), math.abs(u:max()))
  print(string.format("%s, %s diffusion: max |w - series| / w_max = %.3f%%, max |u| = %.1e, %d steps", solver,
                      diffusion, 100 * err / wmax, umax, sim.step))
  assert(err / wmax < 0.01, solver .. ": not within 1% of the series solution")
  assert(umax < 1e-10, solver .. ": transverse flow in a straight duct")
end
