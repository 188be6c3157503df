-- Runs the scripts in examples/ at their default settings (about 20 s together) and
-- checks what each returns:
--   re_sweep.lua: every cavity run reaches a steady state; at Re = 100 (32 x 32) the
--     centreline extremes are within 0.01 of Ghia et al. (1982) (the case gives 0.003),
--     and the primary vortex strengthens with Re (|u_min| grows).
--   pulsating_inflow.lua: the flux through the first and the last column of cells agree
--     to 1e-6 at every sample (CG pressure solve to 1e-8: the example gives 6e-12), and
--     match the flux of the prescribed inflow values.
--   custom_boundary.lua: the fluid just below the oscillating top wall follows the wall:
--     whenever the wall runs at 70% of its peak speed or more, u(0.5, 0.95) has its sign.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local examples = here .. "../../examples/"

local function run(name)
  print("== " .. name)
  local result = dofile(examples .. name)
  assert(type(result) == "table", name .. " returned no result table")
  return result
end

-- Parameter sweep over Re.
local rows = run("re_sweep.lua")
assert(#rows == 4, "re_sweep ran " .. #rows .. " cases, expected 4")
local ghia100 = { u_min = -0.21090, v_max = 0.17527, v_min = -0.24533 }
for i, r in ipairs(rows) do
  assert(r.reason == "reached a steady state", string.format("Re = %g stopped without a steady state (%s)",
                                                               r.Re, tostring(r.reason)))
  if i > 1 then
    assert(r.u_min < rows[i - 1].u_min, string.format("u_min does not grow in size from Re = %g to %g",
                                                      rows[i - 1].Re, r.Re))
  end
  if r.Re == 100 then
    for key, ref in pairs(ghia100) do
      assert(math.abs(r[key] - ref) < 0.01, string.format("Re = 100: %s = %.4f, Ghia %.4f", key, r[key], ref))
    end
  end
end

-- Mass balance with a time-dependent inflow.
local p = run("pulsating_inflow.lua")
assert(p.samples >= 50, "pulsating_inflow recorded only " .. p.samples .. " samples")
assert(p.imbalance < 1e-6, string.format("inlet and outlet fluxes differ by %.3e", p.imbalance))
assert(p.inflow_error < 1e-6, string.format("inlet flux differs from the prescribed one by %.3e", p.inflow_error))

-- User-defined moving walls.
local record = run("custom_boundary.lua")
local checked = 0
for _, r in ipairs(record) do
  if math.abs(r.wall) >= 0.7 then
    checked = checked + 1
    assert(r.u_near * r.wall > 0, string.format("t = %.2f: wall speed %+.3f but u(0.5, 0.95) = %+.4f",
                                                r.t, r.wall, r.u_near))
  end
end
assert(checked >= 8, "too few samples with the wall moving fast: " .. checked)
print("examples ok")
