-- After every step the velocity is divergence-free to the pressure tolerance, with
-- either solver, with obstacles, an inflow and an outflow. The divergence field and
-- the diagnostics must agree.
--
-- This holds for every fluid cell with the obstacles as staircase cells, which the
-- first runs pin (kernels.bodies = "staircase"). As immersed bodies (the default for
-- these shapes), the cells the surface cuts keep their mass balance by a fixed-point
-- iteration, one sweep a step, exact at a steady state
-- (models/projection/immersed_mass.hpp): while the flow starts their balance lags
-- (measured here: max 7.6 at step 5, 2e-2 at step 40, rbsor). So the immersed run checks
-- the cells two cells clear of the bodies to the same bound, and that the bodies
-- swallow no fluid (body_inflow).
local circle = { x = 0.5, y = 0.45, r = 0.15 }
local rect = { x0 = 1.2, y0 = 0, x1 = 1.4, y1 = 0.3 }
local function case(solver, bodies)
  return flow.simulation {
    grid = { nx = 64, ny = 32, lx = 2, ly = 1 },
    fluid = { nu = 0.01 },
    boundaries = {
      left = flow.inflow { u = function(y) return 6 * y * (1 - y) end },
      right = flow.outflow(), bottom = flow.wall(), top = flow.slip(),
    },
    obstacles = { flow.circle(circle), flow.rect(rect) },
    kernels = { bodies = bodies },
    time = { steps = 40 },
    pressure = { solver = solver, tol = 1e-9, max_iter = 20000 },
  }
end

for _, solver in ipairs { "rbsor", "cg" } do
  local sim = case(solver, "staircase")
  local worst = 0
  sim:every(5, function(s)
    local d = s:diagnostics()
    local div = s:field("divergence")
    local m = math.max(math.abs(div:min()), math.abs(div:max()))
    assert(math.abs(m - d.max_divergence) <= 1e-12 + 1e-9 * m, "diagnostics and divergence field disagree")
    worst = math.max(worst, m)
  end)
  sim:run()
  print(string.format("%s: max |div u| over the run %.3e, max speed %.3f", solver, worst, sim:field("speed"):max()))
  assert(worst < 1e-6, solver .. ": velocity not divergence-free: " .. worst)
  assert(sim:field("speed"):max() > 1, "the flow did not start")
end

-- Immersed (the default): the cells whose centre is at least 2 h from both bodies.
local function distance(x, y)
  local dc = math.sqrt((x - circle.x) ^ 2 + (y - circle.y) ^ 2) - circle.r
  local dx = math.max(rect.x0 - x, 0, x - rect.x1)
  local dy = math.max(rect.y0 - y, 0, y - rect.y1)
  return math.min(dc, math.sqrt(dx * dx + dy * dy))
end
for _, solver in ipairs { "rbsor", "cg" } do
  local sim = case(solver, nil)
  assert(sim:explain():find("\n  bodies +immersed"), "the bodies are not immersed by default")
  local worst, inflow, counted = 0, 0, 0
  sim:every(5, function(s)
    local div = s:field("divergence")
    local h = s.dx
    counted = 0
    for j = 1, s.ny do
      for i = 1, s.nx do
        if distance((i - 0.5) * h, (j - 0.5) * h) >= 2 * h then
          worst = math.max(worst, math.abs(div:get(i, j)))
          counted = counted + 1
        end
      end
    end
    inflow = math.max(inflow, math.abs(s:diagnostics().body_inflow))
  end)
  sim:run()
  print(string.format("%s, immersed: max |div u| over the run %.3e in the %d cells 2 h clear of the bodies, " ..
                      "max |body_inflow| %.2e", solver, worst, counted, inflow))
  assert(counted > 0.8 * sim.nx * sim.ny, "too few cells checked: " .. counted)
  assert(worst < 1e-6, solver .. ", immersed: velocity not divergence-free away from the bodies: " .. worst)
  assert(inflow < 1e-6, solver .. ", immersed: the bodies swallow fluid: " .. inflow)
  assert(sim:field("speed"):max() > 1, "the flow did not start")
end
