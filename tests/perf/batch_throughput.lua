-- Throughput of many small cavities (issue 12): `members` lid-driven cavities of n x n,
-- each with its own Re, five red-black sweeps a step (max_iter 5, as the harness's
-- step), `steps` steps each. mode = "batch": all of them as one flow.batch; mode =
-- "alone": members first .. first + count - 1 one after another in this process (the
-- run of one of several concurrent processes). Prints one line:
--   THROUGHPUT mode=... members=... n=... case_steps=... wall=... case_steps_per_s=...
-- Used by tests/gpu/batch_on_device.sh; on the CPU it runs too (slowly).
local members = param("members", 256)
local n = param("n", 64)
local steps = param("steps", 1000)
local mode = param("mode", "batch")
local first = param("first", 1)
local count = param("count", members)

local function case(k)
  return {
    grid = { nx = n, ny = n },
    fluid = { Re = 100 + 10 * (k - 1) },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = { steps = steps, cfl = 0.5 },
    pressure = { solver = "rbsor", omega = 1.8, tol = 1e-12, max_iter = 5 },
  }
end

local wall, case_steps
if mode == "batch" then
  local sims = {}
  for k = first, first + count - 1 do sims[#sims + 1] = flow.simulation(case(k)) end
  local _, summary = flow.batch(sims):run()
  wall, case_steps = summary.wall, summary.case_steps
  assert(summary.batched or sims[1].backend == "cpu", "the batch did not launch its stages together")
elseif mode == "alone" then
  wall, case_steps = 0, 0
  for k = first, first + count - 1 do
    local r = flow.simulation(case(k)):run()
    wall, case_steps = wall + r.wall, case_steps + r.steps
  end
else
  error("mode must be batch or alone (got " .. tostring(mode) .. ")")
end
print(string.format("THROUGHPUT mode=%s members=%d n=%d case_steps=%d wall=%.3f case_steps_per_s=%.1f", mode, count, n,
                    case_steps, wall, case_steps / wall))
