-- kernels.bodies (projection model): bodies of exact shape are immersed boundaries by
-- default, and the default falls back to staircase cells, saying why in the plan
-- (sim:explain(), --explain), where the immersed treatment cannot run or gains nothing;
-- kernels.bodies = "immersed" by name is an error where it cannot run
-- (docs/case-language.md, "Immersed bodies"). Several MPI ranks, the other fallback,
-- are tests/mpi/projection_refusals.sh's.
local function case(obstacles, o)
  o = o or {}
  return flow.simulation {
    grid = { nx = 32, ny = 16, lx = 2, ly = 1 },
    fluid = { nu = 0.01 },
    boundaries = o.boundaries or {
      left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
    },
    obstacles = obstacles,
    kernels = { bodies = o.bodies },
    time = { steps = 3 },
  }
end

local function bodies_line(sim)
  return sim:explain():match("\n  bodies +([^\n]*)")
end
local function expect(sim, variant, note, what)
  local line = bodies_line(sim)
  assert(line and line:find("^" .. variant .. "[ :]"), what .. ": bodies stage '" .. tostring(line) .. "', expected " .. variant)
  if note then
    assert(line:find(note, 1, true), what .. ": the plan says '" .. line .. "', not '" .. note .. "'")
    assert(sim:explain():find("of exact shape as staircase cells: " .. note, 1, true),
           what .. ": no bodies line with the reason in the case summary")
  end
  print(string.format("%-44s %s", what, line:sub(1, 150)))
end
local function refused(fn, message, what)
  local ok, err = pcall(fn)
  assert(not ok, what .. ": not refused")
  assert(tostring(err):find(message, 1, true), what .. ": refused with '" .. tostring(err) .. "'")
  print(string.format("%-44s refused: %s", what, tostring(err):match("kernels.bodies.*") or err))
end

local circle = flow.circle { x = 0.5, y = 0.5, r = 0.2 }

-- The default: immersed, for every shape that knows its boundary.
expect(case { circle }, "immersed", nil, "circle")
expect(case { flow.polygon { { 0.4, 0.3 }, { 0.7, 0.45 }, { 0.45, 0.7 } } }, "immersed", nil, "polygon")
expect(case { flow.level_set(function(x, y) return (x - 0.6) ^ 2 + (y - 0.5) ^ 2 - 0.04 end) }, "immersed", nil,
       "level set")
-- A rectangle off the grid lines (dx = dy = 1/16) is immersed; one on them stays cells,
-- which represent it exactly, unless asked for by name.
expect(case { flow.rect { x0 = 0.53, y0 = 0.3, x1 = 0.8, y1 = 0.7 } }, "immersed", nil, "rect off the grid lines")
local on_lines = flow.rect { x0 = 0.5, y0 = 0.25, x1 = 0.75, y1 = 0.75 }
expect(case { on_lines }, "staircase", "every body is a flow.rect with its sides on grid lines", "rect on grid lines")
expect(case({ on_lines }, { bodies = "immersed" }), "immersed", nil, "rect on grid lines, immersed by name")
expect(case { on_lines, circle }, "immersed", nil, "rect on grid lines and a circle")
-- kernels.bodies = "staircase" by name: cells, no reason needed.
local s = case({ circle }, { bodies = "staircase" })
assert(bodies_line(s):find("^staircase %(forced%)"), "staircase by name: " .. bodies_line(s))
assert(s:explain():find("of exact shape as staircase cells: kernels.bodies = 'staircase'", 1, true))
-- Masks and predicate functions are cells in any case: no bodies of exact shape.
expect(case { function(x, y) return (x - 0.5) ^ 2 + (y - 0.5) ^ 2 < 0.04 end }, "staircase", nil, "predicate")
assert(not case({ function(x, y) return x > 0.5 and x < 0.7 and y < 0.4 end }):explain():find("\nbodies "),
       "a predicate has a bodies line in the case summary")

-- A body on the outflow side: the staircase by default; immersed by name is refused.
local on_outflow = flow.circle { x = 1.95, y = 0.5, r = 0.2 }
expect(case { circle, on_outflow }, "staircase", "obstacles[2] reaches the outflow side right", "circle on the outflow side")
refused(function() case({ circle, on_outflow }, { bodies = "immersed" }) end,
        "kernels.bodies = 'immersed': obstacles[2] reaches the outflow side right", "circle on the outflow side, by name")
-- A body across a periodic side: the same.
local periodic = { left = flow.periodic(), right = flow.periodic(), bottom = flow.wall(), top = flow.wall() }
local across = flow.circle { x = 0.05, y = 0.5, r = 0.2 }
expect(case({ across }, { boundaries = periodic }), "staircase", "obstacles[1] reaches the periodic side left",
       "circle across a periodic side")
refused(function() case({ across }, { boundaries = periodic, bodies = "immersed" }) end,
        "obstacles[1] reaches the periodic side left", "circle across a periodic side, by name")
-- A body on a wall or the inflow side stays immersed (the step of cases/step.lua: the
-- side's faces count as prescribed), and one clear of the periodic sides too.
expect(case { flow.rect { x0 = 0, y0 = 0, x1 = 0.53, y1 = 0.4 } }, "immersed", nil, "rect on the inflow side and a wall")
expect(case({ circle }, { boundaries = periodic }), "immersed", nil, "circle clear of the periodic sides")

-- The immersed default runs: 3 steps, and no body swallows fluid (body_inflow against
-- the inflow's flux of 1, to the default pressure tolerance 1e-5; measured 1.3e-6).
local sim = case { circle }
sim:run()
local d = sim:diagnostics()
assert(d.body_inflow and math.abs(d.body_inflow) < 1e-5, "body_inflow " .. tostring(d.body_inflow))
print(string.format("circle, immersed by default: 3 steps, body_inflow %.2e", d.body_inflow))
