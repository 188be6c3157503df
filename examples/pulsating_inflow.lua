-- Pulsating channel flow: a parabolic inflow whose strength oscillates in time,
--   u(y, t) = 6 U y (H - y) / H^2 * (1 + A sin(2 pi f t))     (mean U over the inlet)
-- given as a Lua function of (y, t), outflow on the right, no-slip walls. The flow is
-- incompressible, so at every instant the volume flux through the inlet equals the flux
-- through any other cross-section: the example measures it near the inlet and near the
-- outlet from u snapshots and prints the mass balance. With the Womersley number
-- alpha = (H/2) sqrt(2 pi f / nu) of about 6 the profile near the outlet is not a
-- scaled parabola: the near-wall fluid lags the core (Womersley 1955).
--
--   flowlua examples/pulsating_inflow.lua
--   flowlua examples/pulsating_inflow.lua --set A=0.9 --set f=1
local A = param("A", 0.5)            -- relative amplitude of the pulsation
local f = param("f", 0.5)            -- frequency (period 1/f)
local periods = param("periods", 3)  -- how many periods to run
local ny = param("ny", 24)
local every = param("every", 1)      -- re-evaluate the inflow function every this many steps

local H, L, U, nu = 1.0, 6.0, 1.0, 0.02   -- Re = U H / nu = 50
local function inflow(y, t) return 6 * U * y * (H - y) / (H * H) * (1 + A * math.sin(2 * math.pi * f * t)) end
local function Q(t) return U * H * (1 + A * math.sin(2 * math.pi * f * t)) end

local sim = flow.simulation {
  grid = { nx = math.floor(ny * L / H + 0.5), ny = ny, lx = L, ly = H },
  fluid = { nu = nu },
  boundaries = {
    left = flow.inflow {
      u = inflow,
      every = every,
    },
    right = flow.outflow(),
    bottom = flow.wall(), top = flow.wall(),
  },
  time = { t_end = periods / f, cfl = 0.5 },
  pressure = { solver = "cg", tol = 1e-8, max_iter = 5000 },
}
print(string.format("pulsating channel: %d x %d cells, Re = %g, A = %g, f = %g, Womersley number %.2f",
                    sim.nx, sim.ny, U * H / nu, A, f, 0.5 * H * math.sqrt(2 * math.pi * f / nu)))

-- Volume flux through the vertical line x (u interpolated to the cell centres there).
local function flux(u, x)
  local q = 0
  for _, pt in ipairs(u:line { x = x }) do q = q + pt.value * sim.dy end
  return q
end

-- The flux the inflow boundary actually carries: the engine evaluates the function at
-- the boundary-cell centres y = (k - 1/2) dy (the midpoint rule, which overestimates the
-- integral of the parabola by a relative dy^2 / 2).
local function Q_discrete(t)
  local q = 0
  for k = 1, sim.ny do q = q + inflow((k - 0.5) * sim.dy, t) * sim.dy end
  return q
end

local x_in, x_out = 0.5 * sim.dx, L - 0.5 * sim.dx   -- first and last column of cells
local csv = flow.csv("flux.csv")
local worst, worst_lag = 0, 0
sim:every_time(0.05 / f, function(s)
  local u = s:field("u")
  local q_in, q_out = flux(u, x_in), flux(u, x_out)
  -- the boundary values of the step that ended at s.time were set when it began
  local q_set = Q_discrete(s.time - s.dt)
  worst = math.max(worst, math.abs(q_in - q_out))
  worst_lag = math.max(worst_lag, math.abs(q_in - q_set))
  csv:row { { "t", s.time }, { "q_prescribed", Q(s.time) }, { "q_inlet", q_in }, { "q_outlet", q_out },
            { "u_centre_outlet", u:sample(x_out, 0.5 * H) }, { "u_near_wall_outlet", u:sample(x_out, 0.1 * H) } }
end)
sim:every_time(0.25 / f, function(s)
  local u = s:field("u")
  print(string.format("t = %5.2f  inflow flux %.4f  measured: inlet %.4f  outlet %.4f  centreline u at outlet %.4f",
                      s.time, Q_discrete(s.time - s.dt), flux(u, x_in), flux(u, x_out), u:sample(x_out, 0.5 * H)))
end)
sim:on_finish(flow.png { field = "u", file = "u.png", colormap = "viridis" })

sim:run()
print(string.format("mass balance over %d samples: max |inlet flux - outlet flux| = %.2e (mean flux %.2f)",
                    csv.rows, worst, U * H))
print(string.format("max |inlet flux - flux of the inflow values (midpoint rule, at the step's start)| = %.2e", worst_lag))
print(worst < 1e-6 and "inlet and outlet fluxes match" or "inlet and outlet fluxes DIFFER")
print("time series in " .. csv.path)
return { samples = csv.rows, imbalance = worst, inflow_error = worst_lag }   -- for tests/cases/examples_run.lua
