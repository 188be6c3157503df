-- Ghia, Ghia & Shin (1982) cavity centreline data (scripts/reference/ghia1982.csv).
--   local ghia = require("flowlua.ghia")
--   ghia.points(100)            --> { {kind = "u", position = y, value = u}, ... }
--   ghia.max_deviation(sim, 100) --> largest |computed - Ghia| over interior points, and per kind
local M = {}

local here = (debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./") .. "../"

function M.points(Re)
  local pts = {}
  for line in io.lines(here .. "reference/ghia1982.csv") do
    local re, kind, pos, value = line:match("^(%d+),(%a),([%d.]+),([-%d.]+)")
    if re and tonumber(re) == Re then
      pts[#pts + 1] = { kind = kind, position = tonumber(pos), value = tonumber(value) }
    end
  end
  if #pts == 0 then error("no Ghia data for Re = " .. tostring(Re) .. " (there is 100 and 1000)", 2) end
  return pts
end

-- Compares a cavity simulation (unit square, lid u = 1 on top) with the table.
-- Points on the walls are boundary values, not results, and are skipped.
function M.max_deviation(sim, Re)
  local u, v = sim:field("u"), sim:field("v")
  local worst = { u = 0, v = 0 }
  for _, p in ipairs(M.points(Re)) do
    if p.position > 0 and p.position < 1 then
      local got = p.kind == "u" and u:sample(0.5, p.position) or v:sample(p.position, 0.5)
      worst[p.kind] = math.max(worst[p.kind], math.abs(got - p.value))
    end
  end
  return math.max(worst.u, worst.v), worst
end

return M
