-- A steady flow stops on its own (issue 16): the quick-start cavity (cases/cavity.lua,
-- Re = 100, central differences, red-black SOR with tol 1e-4, time.steady = 1e-4) on a
-- 32 x 32 grid, in both models. time.steady compares the velocity over spans of
-- D = steady_interval and 1.618 D, relative to the velocity scale (the lid, U = 1); on
-- 32^2 the default D (500 steps) is some 6 time units, so D = 2 here. Both models stop
-- before t = 25 with the Ghia deviation of a converged run. (The 128^2 quick-start
-- cavity with the default D is tests/cases/ghia_re100.lua.)
-- And the test refuses a pressure tolerance that cannot reach the target.
local ghia = require("flowlua.ghia")

local D = 2.0
local function cavity(model, n, t_end, steady, tol)
  return flow.simulation {
    model = model,
    grid = { nx = n, ny = n, lx = 1, ly = 1 },
    fluid = { nu = 1 / 100 },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = { t_end = t_end, steady = steady, steady_interval = D, cfl = model == "psi_omega" and 0.9 or 0.5 },
    pressure = model == "psi_omega" and { solver = "cg", tol = tol } or { solver = "rbsor", omega = 1.9, tol = tol },
  }
end

for _, model in ipairs { "projection", "psi_omega" } do
  local sim = cavity(model, 32, 60, 1e-4, model == "psi_omega" and 1e-6 or 1e-4)
  local r = sim:run()
  local change = sim:diagnostics().steady_change
  local worst = ghia.max_deviation(sim, 100)
  print(string.format("%s 32^2: %s at t = %.3f (step %d), steady change %.3g, Ghia deviation %.4f",
                      model, r.reason, sim.time, sim.step, change, worst))
  assert(r.reason == "reached a steady state", model .. ": the cavity did not stop on its own: " .. r.reason)
  assert(sim.time < 25, string.format("%s: steady only at t = %.2f (expected before 25)", model, sim.time))
  assert(sim.time > 5, string.format("%s: 'steady' at t = %.2f, while the vortex still forms", model, sim.time))
  assert(change < 1e-4, model .. ": stopped with steady change " .. change)
  assert(worst < 0.02, string.format("%s: Ghia deviation %.4f at the steady stop", model, worst))
  -- Running on from the steady state: nothing left to change, so the next run stops
  -- at its third sample: at its start, D and D + 1.618 D later.
  local t0 = sim.time
  local again = sim:run()
  assert(again.reason == "reached a steady state", model .. ": a second run did not stop as steady")
  assert(sim.time - t0 < 2.618 * D + 2 * sim.dt,
         string.format("%s: a second run took %.3f time units", model, sim.time - t0))
end

-- A target the pressure solve cannot reach is refused with a message.
local bad = cavity("projection", 16, 60, 1e-6, 1e-2)
local ok, err = pcall(bad.run, bad)
print("refused: " .. tostring(err))
assert(not ok and tostring(err):find("cannot be reached with pressure.tol", 1, true),
       "a steady target below the pressure solve's noise was not refused")
