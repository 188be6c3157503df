-- de Vahl Davis (1983) differentially heated cavity benchmark
-- (scripts/reference/devahldavis1983.csv).
--   local dvd = require("flowlua.devahldavis")
--   dvd.reference(1e4)      --> { nusselt = 2.243, u_max = 16.178, u_max_y = 0.823, v_max = 19.617, v_max_x = 0.119 }
--   dvd.measure(sim)        --> the same quantities computed from a heated-cavity simulation
--   dvd.compare(sim, Ra)    --> a table of relative deviations { nusselt = , u_max = , v_max = } and the measurements
local M = {}

local here = (debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "../"

function M.reference(Ra)
  local r = {}
  for line in io.lines(here .. "reference/devahldavis1983.csv") do
    local ra, q, value, pos = line:match("^(%d+),(%a[%a_]*),([-%d.]+),([%d.]*)")
    if ra and tonumber(ra) == Ra then
      r[q] = tonumber(value)
      if pos ~= "" then r[q .. (q == "u_max" and "_y" or "_x")] = tonumber(pos) end
    end
  end
  if not r.nusselt then error("no de Vahl Davis data for Ra = " .. tostring(Ra) .. " (there is 1000 and 10000)", 2) end
  return r
end

-- Largest value of f(s) for s in [0, 1]: samples every h / 2, then a parabola through
-- the largest sample and its two neighbours (the maxima lie between grid points).
local function line_max(f, h)
  local step, best, kb = h / 2, -math.huge, 0
  local n = math.floor(1 / step + 0.5)
  for k = 1, n - 1 do
    local v = f(k * step)
    if v > best then best, kb = v, k end
  end
  local a, b, c = f((kb - 1) * step), best, f((kb + 1) * step)
  local denom = a - 2 * b + c
  if denom >= 0 then return best, kb * step end
  local off = 0.5 * (a - c) / denom
  return b - 0.25 * (a - c) * off, (kb + off) * step
end

-- Nusselt number on the hot wall (x = 0): the mean outward temperature gradient there,
-- times L / dT = 1; velocity maxima on the mid-planes.
function M.measure(sim)
  local u, v = sim:field("u"), sim:field("v")
  local r = { nusselt = sim:diagnostics().dTdn_left }
  r.u_max, r.u_max_y = line_max(function(y) return u:sample(0.5, y) end, sim.dy)
  r.v_max, r.v_max_x = line_max(function(x) return v:sample(x, 0.5) end, sim.dx)
  return r
end

function M.compare(sim, Ra)
  local ref, got = M.reference(Ra), M.measure(sim)
  local dev = {}
  for _, q in ipairs { "nusselt", "u_max", "v_max" } do dev[q] = math.abs(got[q] - ref[q]) / ref[q] end
  return dev, got, ref
end

return M
