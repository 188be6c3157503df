-- Plane Poiseuille flow in the fractional_step model with an inflow and an outflow
-- side (2D): the exact parabola u = 6 U y (H - y) / H^2 flows in on the left, walls
-- at y = 0 and H, flow.outflow() on the right. Downstream the flow settles on the
-- scheme's own fully developed profile, which is known in closed form: the
-- three-point second difference is exact on a parabola, and the wall's mirrored
-- ghost (u_0 = -u_1) shifts it by A h^2 / 4, so
--   u_j = A y_j (H - y_j) + A h^2 / 4,   A = U (1 + h^2 / (2 H^2)) / (H^2 / 6 + h^2 / 3)
-- (A from the inflow's midpoint flux U H + U h^2 / (2 H)). Checked: the last columns
-- within 1e-5 U of it, the error against the exact parabola of second order (ratio
-- > 3 per halving of h, tending to 4), the outflow carrying the inflow's volume
-- (inflow_flux and outflow_flux, their difference bounded by the area times
-- max |div u|). The inflow is a function(y, t), re-evaluated every step; the pressure
-- solver is the one the case gets without pressure.solver (multigrid: an inflow-
-- outflow axis has no FFT).
local H, L, nu, U = 1.0, 2.0, 0.1, 1.0
local function parabola(y) return 6 * U * y * (H - y) / H ^ 2 end

local function run(ny)
  local h = H / ny
  local A = U * (1 + h * h / (2 * H * H)) / (H * H / 6 + h * h / 3)
  local sim = flow.simulation {
    model = "fractional_step",
    grid = { nx = 2 * ny, ny = ny, lx = L, ly = H },
    fluid = { nu = nu },
    boundaries = { left = flow.inflow { u = function(y, t) return parabola(y) end }, right = flow.outflow(),
                   bottom = flow.wall(), top = flow.wall() },
    time = { t_end = 4, cfl = 0.9 },
  }
  sim:run()
  local u = sim:field("u")
  local nx = 2 * ny
  local to_discrete, to_exact = 0, 0
  for j = 1, ny do
    local y = (j - 0.5) * h
    for _, i in ipairs { nx - 1, nx } do
      to_discrete = math.max(to_discrete, math.abs(u:get(i, j) - (A * y * (H - y) + A * h * h / 4)))
      to_exact = math.max(to_exact, math.abs(u:get(i, j) - parabola(y)))
    end
  end
  local d = sim:diagnostics()
  print(string.format("ny = %2d: outlet vs the discrete profile %.2e, vs the parabola %.3e; inflow %.12f, "
                      .. "outflow %.12f, max div %.1e (%d steps)", ny, to_discrete, to_exact,
                      d.inflow_flux, d.outflow_flux, d.max_divergence, sim.step))
  assert(to_discrete < 1e-5 * U, "the outlet profile is not the scheme's fully developed one")
  assert(math.abs(d.inflow_flux - U * (H + h * h / (2 * H))) < 1e-12, "inflow flux")
  assert(math.abs(d.inflow_flux - d.outflow_flux) <= L * H * d.max_divergence + 1e-12, "mass is not conserved")
  return to_exact
end

local e8, e16 = run(8), run(16)
print(string.format("error ratio against the parabola: %.2f", e8 / e16))
assert(e8 / e16 > 3, "not second order")
