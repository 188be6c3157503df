-- The fractional_step model in a 2D channel past an obstacle against the projection
-- model on the same grid (the same staircase of flagged cells, the same parabolic
-- inflow, walls and outflow). With central fluxes (advection = "central" here,
-- kernels.advection = "central" there) both discretise the steady equations alike:
-- the same face averages for u^2 and u v (seed 004 eq. 11 with central face values is
-- Griebel's central scheme at gamma = 0), the same five-point Laplacian, the same
-- mirrored values across the obstacle's walls (NaSt2D's ghost faces; here taken
-- inside the stencil), the same outflow (u* copied from the last interior face,
-- p = 0 on the face). Their steady states then differ only by the convergence of
-- the two runs and the pressure solves (tol 1e-12): the bound is 1e-9 U. One thing
-- must match besides: the outflow face's steady value depends on dt (u_n = u_{n-1} +
-- dt (R_{n-1} + 2 p_n / dx) where the flow is not yet developed, in both models), so
-- both run with the same fixed dt. With QUICK the difference is the schemes'
-- truncation difference (printed, not bounded here).
local nx, ny, L, H, nu, U = 48, 12, 4.0, 1.0, 0.05, 1.0
local function parabola(y) return 6 * U * y * (H - y) / H ^ 2 end
local function channel(model, extra)
  local t = {
    model = model,
    grid = { nx = nx, ny = ny, lx = L, ly = H },
    fluid = { nu = nu },
    boundaries = { left = flow.inflow { u = parabola }, right = flow.outflow(), bottom = flow.wall(),
                   top = flow.wall() },
    obstacles = { flow.rect { x0 = 1.0, y0 = 0.25, x1 = 1.5, y1 = 0.75 } },
    time = { t_end = 40, dt = 0.004, steady = 1e-9 },
    pressure = { solver = "multigrid", tol = 1e-12 },
  }
  for k, v in pairs(extra) do t[k] = v end
  return flow.simulation(t)
end

-- bodies = "staircase": the square lies on grid lines, which keeps it cells by default
-- too; named, since the comparison is of the staircase.
local projection = channel("projection", { kernels = { advection = "central", bodies = "staircase" } })
local rp = projection:run()
assert(rp.reason == "reached a steady state", "projection: " .. rp.reason)

local function difference(sim, name)
  local d = 0
  local a, b = projection:field(name), sim:field(name)
  for j = 1, ny do
    for i = 1, nx do d = math.max(d, math.abs(a:get(i, j) - b:get(i, j))) end
  end
  return d
end

for _, advection in ipairs { "central", "quick" } do
  local fs = channel("fractional_step", { advection = advection })
  local r = fs:run()
  assert(r.reason == "reached a steady state", advection .. ": " .. r.reason)
  local du, dv, dp = difference(fs, "u"), difference(fs, "v"), difference(fs, "p")
  local d = math.max(du, dv, dp)
  print(string.format("%s fluxes: max |fs - projection|: u %.2e, v %.2e, p %.2e (steady after %d and %d steps)",
                      advection, du, dv, dp, r.steps, rp.steps))
  if advection == "central" then assert(d < 1e-9 * U, "central: not the projection model's steady state") end
end
