-- Parameter study: the lid-driven cavity (Ghia, Ghia & Shin 1982, J. Comput. Phys. 48:387)
-- at several Reynolds numbers on a coarse grid, all members stepped together as one batch
-- (flow.study: each stage of a step is one launch for the whole batch), each member run
-- to its own steady state. One CSV row per member (sweep.csv) and a table at the end;
-- Ghia's extreme centreline velocities are printed beside the computed ones where they
-- exist.
--
--   flowlua examples/re_sweep.lua                  Re = 50, 100, 200, 400 on 32 x 32
--   flowlua examples/re_sweep.lua --set n=64 --set res="100 400 1000"
local n = param("n", 32)
local res = param("res", "50 100 200 400")   -- the Reynolds numbers, separated by spaces
local t_end = param("t_end", 60.0)           -- upper bound on the simulated time per member
local steady = param("steady", 1e-4)         -- stop a member when steady (time.steady: the velocity's change per time unit / U)

-- Extremes of Ghia's Table I/II (u on x = 0.5, v on y = 0.5), 129 x 129 grid.
local ghia = {
  [100] = { u_min = -0.21090, v_max = 0.17527, v_min = -0.24533 },
  [400] = { u_min = -0.32726, v_max = 0.30203, v_min = -0.44993 },
  [1000] = { u_min = -0.38289, v_max = 0.37095, v_min = -0.51550 },
}

local list = {}
for word in res:gmatch("[^%s,]+") do
  local re = tonumber(word)
  if not re or re <= 0 then error("res must list positive numbers (got '" .. word .. "')") end
  list[#list + 1] = re
end

-- Extremes of a field along a line, with the cell-centre values interpolated across.
local function extremes(points)
  local lo, hi = math.huge, -math.huge
  for _, pt in ipairs(points) do
    lo, hi = math.min(lo, pt.value), math.max(hi, pt.value)
  end
  return lo, hi
end

local names = {}
for i, Re in ipairs(list) do names[i] = string.format("Re%g", Re) end
local study = flow.study {
  base = {
    grid = { nx = n, ny = n, lx = 1.0, ly = 1.0 },
    fluid = { Re = list[1] },                 -- lid speed 1, side 1
    boundaries = {
      top = flow.wall { u = 1.0 },
      bottom = flow.wall(), left = flow.wall(), right = flow.wall(),
    },
    time = { t_end = t_end, cfl = 0.5, steady = steady },
    pressure = { solver = "rbsor", omega = 1.8, tol = 1e-4 },
  },
  vary = { ["fluid.Re"] = list },            -- one member per Re
}

-- Each member's picture once it is steady (its own on_finish callback).
for i, sim in ipairs(study.members) do
  sim:on_finish(function(s)
    flow.png { field = "stream", file = "stream_" .. names[i] .. ".png", colormap = "gray" } (s)
  end)
end

local clock = os.clock()
local reports, summary = study:run()
local cpu = os.clock() - clock                 -- processor time of all threads, all members

local csv = flow.csv("sweep.csv")
local rows = {}
for i, sim in ipairs(study.members) do
  local Re, report = list[i], reports[i]
  local u_min = extremes(sim:field("u"):line { x = 0.5 })
  local v_min, v_max = extremes(sim:field("v"):line { y = 0.5 })
  local ke = sim:diagnostics().kinetic_energy
  local row = { Re = Re, steps = report.steps, time = sim.time, u_min = u_min, v_max = v_max,
                v_min = v_min, kinetic_energy = ke, wall = report.wall, reason = report.reason }
  rows[#rows + 1] = row
  csv:row { { "Re", Re }, { "steps", report.steps }, { "time", sim.time }, { "u_min", u_min },
            { "v_max", v_max }, { "v_min", v_min }, { "kinetic_energy", ke },
            { "wall_s", report.wall },
            { "steady", report.reason == "reached a steady state" } }
end

print()
print(string.format("lid-driven cavity, %d x %d cells, %d members in one batch; Ghia et al. (1982) in brackets",
                    n, n, #list))
print("     Re   steps  time     u_min (x=0.5)       v_max (y=0.5)       v_min (y=0.5)    kinetic energy  wall s")
for _, r in ipairs(rows) do
  local g = ghia[r.Re]
  local function ref(key) return g and string.format("(%+.4f)", g[key]) or "         " end
  print(string.format("%7g %7d %5.1f  %+.4f %s  %+.4f %s  %+.4f %s   %.5f   %6.2f",
                      r.Re, r.steps, r.time, r.u_min, ref("u_min"), r.v_max, ref("v_max"),
                      r.v_min, ref("v_min"), r.kinetic_energy, r.wall))
end
print(string.format("batch: %d case steps in %.2f s wall (%.3g case steps/s), %.2f s CPU; %s",
                    summary.case_steps, summary.wall, summary.case_steps_per_s, cpu,
                    summary.batched and "one launch per stage for the batch" or "members stepped in turn"))
print("table in " .. csv.path)
return rows   -- for tests/cases/examples_run.lua (flowlua ignores it)
