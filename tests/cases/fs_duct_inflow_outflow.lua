-- Laminar flow developing in a square duct (fractional_step model in 3D): a uniform
-- w = 1 flows in through the back side (z = 0), out through the front (flow.outflow()),
-- no-slip walls on the four others. Downstream the profile is the fully developed
-- one, the series solution of nu lap w = dp/dz with w = 0 on the walls (the one
-- cases/fs/channel_3d.lua and case.fs_square_duct check with a body force; White,
-- Viscous Fluid Flow, sec. 3-3.3), scaled to the inflow's mean velocity:
--   w(x, y) / W = S(x, y) / mean(S),
--   S = sum_{n odd} n^-3 sin(n pi x / a) [1 - cosh(n pi (y - a/2) / a) / cosh(n pi / 2)].
-- Re = W a / nu = 10: the entrance length is about 0.06 Re a = 0.6 a; the duct is 3 a
-- long. Checked: the last two quarters within 1% of the series solution (16 x 16
-- cells across, as case.fs_square_duct), the first quarter not yet (the profile
-- develops, it is not imposed), and the outflow carrying the inflow's volume.
local n, nz, a, lz, nu = 16, 24, 1.0, 3.0, 0.1
local function S(x, y)
  local s = 0
  for k = 1, 199, 2 do
    s = s + math.sin(k * math.pi * x / a) / k ^ 3
        * (1 - math.cosh(k * math.pi * (y - a / 2) / a) / math.cosh(k * math.pi / 2))
  end
  return s
end
local h = a / n
local mean = 0
for j = 1, n do
  for i = 1, n do mean = mean + S((i - 0.5) * h, (j - 0.5) * h) end
end
mean = mean / (n * n)
local wmax = S(a / 2, a / 2) / mean

local sim = flow.simulation {
  model = "fractional_step",
  grid = { nx = n, ny = n, nz = nz, lx = a, ly = a, lz = lz },
  fluid = { nu = nu },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall(),
    back = flow.inflow { w = 1 }, front = flow.outflow(),
  },
  time = { t_end = 4, cfl = 0.9 },
}
sim:run()
local w = sim:field("w")
local function error_at(k)
  local e = 0
  for j = 1, n do
    for i = 1, n do e = math.max(e, math.abs(w:get(i, j, k) - S((i - 0.5) * h, (j - 0.5) * h) / mean)) end
  end
  return e / wmax
end
local d = sim:diagnostics()
for _, k in ipairs { nz / 4, nz / 2, 3 * nz / 4, nz } do
  print(string.format("z = %.2f: max |w - series| / w_max = %.3f%%", (k - 0.5) * lz / nz, 100 * error_at(k)))
end
print(string.format("inflow %.12f, outflow %.12f, max div %.1e, %d steps", d.inflow_flux, d.outflow_flux,
                    d.max_divergence, sim.step))
assert(error_at(nz / 4) > 0.02, "the profile near the inlet should still be developing")
for _, k in ipairs { nz / 2 + 1, 3 * nz / 4, nz } do
  assert(error_at(k) < 0.01, "not within 1% of the series solution at k = " .. k)
end
assert(math.abs(d.inflow_flux - a * a) < 1e-12, "inflow flux")
assert(math.abs(d.inflow_flux - d.outflow_flux) <= a * a * lz * d.max_divergence + 1e-12, "mass is not conserved")
