-- The fractional_step model through the case language: the Taylor-Green vortex on
-- 16^2, 32^2, 64^2 with central fluxes converges at second order (error ratio
-- 4 +- 0.3), QUICK at least as fast; float agrees with double; the pcg solver with
-- the FFT preconditioner (seed 004's method) takes one iteration a step.
local function run(n, advection, precision, pressure)
  local h = 2 * math.pi / n
  local steps = math.ceil(1 / (0.4 * h))
  local sim = flow.simulation {
    model = "fractional_step",
    grid = { nx = n, ny = n, lx = 2 * math.pi, ly = 2 * math.pi },
    fluid = { nu = 0.01 },
    initial = {
      u = function(x, y) return math.sin(x) * math.cos(y) end,
      v = function(x, y) return -math.cos(x) * math.sin(y) end,
    },
    advection = advection,
    precision = precision,
    pressure = pressure,
    time = { dt = 1 / steps, t_end = 1 },
  }
  sim:run()
  local u, err = sim:field("u"), 0
  local decay = math.exp(-2 * 0.01 * sim.time)
  for j = 1, n do
    for i = 1, n do
      local exact = math.sin((i - 0.5) * h) * math.cos(h / 2) * math.cos((j - 0.5) * h) * decay
      err = math.max(err, math.abs(u:get(i, j) - exact))
    end
  end
  return err, sim
end
for _, adv in ipairs { "central", "quick" } do
  local e = {}
  for k = 1, 3 do e[k] = run(8 * 2 ^ k, adv) end
  print(string.format("%s: errors %.3e %.3e %.3e ratios %.3f %.3f", adv, e[1], e[2], e[3], e[1] / e[2], e[2] / e[3]))
  if adv == "central" then
    assert(math.abs(e[1] / e[2] - 4) < 0.3 and math.abs(e[2] / e[3] - 4) < 0.3, "central: not second order")
  else
    assert(e[1] / e[2] > 3.7 and e[2] / e[3] > 3.7, "quick: below second order")
  end
end
local ed = run(32, "quick", "double")
local ef = run(32, "quick", "float")
print(string.format("32^2 quick: error double %.4e, float %.4e", ed, ef))
assert(math.abs(ed - ef) < 1e-5, "float and double disagree")
-- pcg's preconditioner defaults to the FFT one in this model
local ep, sim = run(32, "quick", "double", { solver = "pcg", tol = 1e-10 })
assert(sim:diagnostics().pressure_iterations == 1, "pcg with the FFT preconditioner took more than one iteration")
assert(math.abs(ep - ed) < 1e-9, "pcg and the direct FFT solve disagree")
