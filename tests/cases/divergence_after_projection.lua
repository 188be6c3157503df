-- After every step the velocity is divergence-free to the pressure tolerance, with
-- either solver, with obstacles, an inflow and an outflow. The divergence field and
-- the diagnostics must agree.
for _, solver in ipairs { "rbsor", "cg" } do
  local sim = flow.simulation {
    grid = { nx = 64, ny = 32, lx = 2, ly = 1 },
    fluid = { nu = 0.01 },
    boundaries = {
      left = flow.inflow { u = function(y) return 6 * y * (1 - y) end },
      right = flow.outflow(), bottom = flow.wall(), top = flow.slip(),
    },
    obstacles = { flow.circle { x = 0.5, y = 0.45, r = 0.15 }, flow.rect { x0 = 1.2, y0 = 0, x1 = 1.4, y1 = 0.3 } },
    time = { steps = 40 },
    pressure = { solver = solver, tol = 1e-9, max_iter = 20000 },
  }
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
