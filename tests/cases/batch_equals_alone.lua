-- flow.study / flow.batch through the case language: members with their own Re, lid
-- speed, obstacles, time-dependent inflow (a Lua boundary function), stop condition and
-- callbacks end with exactly the fields of the same cases run alone (CPU: bit for bit,
-- every cell of u, v and p), and their callbacks fire at the same steps with the same
-- values. On the GPU (gpu.case.batch_equals_alone) the batched sums add in another
-- order: there the fields must agree to 1e-5 relative (double; SOR tol 1e-6).
local tol = 0  -- set from the members' backend below

local function cavity(Re, lid, steps)
  return {
    grid = { nx = 24, ny = 24 },
    fluid = { Re = Re },
    boundaries = { top = flow.wall { u = lid }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = { steps = steps, cfl = 0.5 },
    pressure = { solver = "rbsor", omega = 1.7, tol = 1e-6, max_iter = 300 },
  }
end

-- Members stop on their own (20, 45, 30 steps); each records kinetic energy every 5 steps.
local specs = { cavity(100, 1.0, 20), cavity(400, 1.0, 45), cavity(100, -0.5, 30) }
local function build(spec, log)
  local sim = flow.simulation(spec)
  sim:every(5, function(s) log[#log + 1] = { s.step, s:diagnostics().kinetic_energy } end)
  return sim
end

local function compare(a, b, what)
  for _, name in ipairs { "u", "v", "p" } do
    local fa, fb = a:field(name), b:field(name)
    local scale = math.max(fa:max(), -fa:min(), 1e-30)
    for j = 1, a.ny do
      for i = 1, a.nx do
        local x, y = fa:get(i, j), fb:get(i, j)
        if math.abs(x - y) > tol * scale then
          error(string.format("%s: %s(%d, %d) = %.17g in the batch, %.17g alone", what, name, i, j, x, y))
        end
      end
    end
  end
  assert(a.step == b.step and math.abs(a.time - b.time) <= tol * b.time,
         string.format("%s: step %d t = %.17g in the batch, step %d t = %.17g alone", what, a.step, a.time, b.step, b.time))
end

local logs, sims = {}, {}
for k, spec in ipairs(specs) do
  logs[k] = {}
  sims[k] = build(spec, logs[k])
end
if sims[1].backend == "cuda" then tol = 1e-5 end  -- an SOR stop one check later moves p by ~tol
local batch = flow.batch(sims)
local reports, summary = batch:run()
assert(summary.members == 3 and summary.case_steps == 95 and summary.batch_steps == 45,
       string.format("summary: %d members, %d case steps, %d batch steps", summary.members, summary.case_steps,
                     summary.batch_steps))
assert(summary.batched, "the members were not launched together")
for k, spec in ipairs(specs) do
  assert(reports[k].reason == "reached the step limit", "member " .. k .. ": " .. tostring(reports[k].reason))
  local log = {}
  local alone = build(spec, log)
  alone:run()
  compare(sims[k], alone, "member " .. k)
  assert(#log == #logs[k], string.format("member %d: %d callbacks in the batch, %d alone", k, #logs[k], #log))
  for i, e in ipairs(log) do
    assert(logs[k][i][1] == e[1] and math.abs(logs[k][i][2] - e[2]) <= tol * math.abs(e[2]),
           string.format("member %d: callback %d differs", k, i))
  end
  assert(batch[k] == sims[k] and batch.members[k] == sims[k], "batch[k] is not member k")
end

-- A study: a channel past a block with a time-dependent inflow, varying viscosity and
-- the block's position; t_end as the stop condition (each member lands on it).
local function inflow(y, t) return 4 * y * (1 - y) * math.min(1, 2 * t) end
local base = {
  grid = { nx = 48, ny = 12, lx = 4, ly = 1 },
  fluid = { nu = 0.02 },
  boundaries = { left = flow.inflow { u = inflow, every = 3 }, right = flow.outflow(),
                 bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.rect { x0 = 0.8, y0 = 0.3, x1 = 1.1, y1 = 0.6 } },
  time = { t_end = 0.6, cfl = 0.5 },
  pressure = { solver = "rbsor", omega = 1.7, tol = 1e-6, max_iter = 400 },
}
local study = flow.study {
  base = base,
  vary = { ["fluid.nu"] = { 0.02, 0.05 }, ["obstacles"] = { { flow.rect { x0 = 0.8, y0 = 0.3, x1 = 1.1, y1 = 0.6 } },
                                                            { flow.rect { x0 = 1.6, y0 = 0.2, x1 = 1.9, y1 = 0.5 } } } },
}
assert(study.size == 4, "study of 2 x 2 has " .. study.size .. " members")
local sreports = study:run()
local values = study.values
for k = 1, 4 do
  assert(sreports[k].reason == "reached t_end", "study member " .. k .. ": " .. tostring(sreports[k].reason))
  local spec = {}
  for key, v in pairs(base) do spec[key] = v end
  spec.fluid = { nu = values[k]["fluid.nu"] }
  spec.obstacles = values[k].obstacles
  local alone = flow.simulation(spec)
  alone:run()
  compare(study[k], alone, "study member " .. k)
end
-- The first key in alphabetical order ("fluid.nu") varies slowest.
assert(values[1]["fluid.nu"] == 0.02 and values[2]["fluid.nu"] == 0.02 and values[3]["fluid.nu"] == 0.05,
       "study order")
print("batch ok")
