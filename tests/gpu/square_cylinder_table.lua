-- The summary table of tests/gpu/square_cylinder_on_device.sh: reads the RESULT lines
-- that scripts/flowlua/square_cylinder.lua printed (one per run, "RESULT name=... key=value
-- ..."), and prints, for the steady runs, L_r / D per Reynolds number, model and grid
-- with the Richardson extrapolation of the three finest grids, and for the shedding
-- runs St, the mean drag and the lift amplitude, each against Breuer et al.'s figure
-- (scripts/flowlua/square_cylinder.lua, M.breuer: see there how far they are verified)
-- and the two models against each other.
--
--   flowlua --quiet tests/gpu/square_cylinder_table.lua --set results=FILE [--set backend=cpu]
--
-- backend: the runs of the grid study and of the shedding (cuda; cpu for a trial run).
--
-- No simulation is made: this is Lua reading a file.
local sq = require("flowlua.square_cylinder")
local file = param("results", "results.txt")
local main_backend = param("backend", "cuda")
local tol_breuer, tol_models = 0.03, 0.02  -- issue 11: 3% of Breuer, 2% between the models

local runs = {}
for line in io.lines(file) do
  if line:match("^RESULT") then
    local r = {}
    for k, v in line:gmatch("([%w_]+)=(%S+)") do r[k] = tonumber(v) or v end
    runs[#runs + 1] = r
  end
end

local function find(t)
  for _, r in ipairs(runs) do
    local ok = true
    for k, v in pairs(t) do ok = ok and r[k] == v end
    if ok then return r end
  end
end

local function pct(a, b) return string.format("%+.2f%%", 100 * (a - b) / b) end
local function verdict(ok) return ok and "pass" or "FAIL" end

-- Richardson extrapolation from three grids n1 < n2 < n3 (h = 1/n): the order p from
-- (f1 - f2) / (f2 - f3) = (h1^p - h2^p) / (h2^p - h3^p), solved by bisection on (0.3, 4);
-- nil when the three do not converge monotonically.
local function richardson(n, f)
  local d1, d2 = f[1] - f[2], f[2] - f[3]
  if d1 == 0 or d2 == 0 or d1 * d2 < 0 or math.abs(d2) >= math.abs(d1) then return nil end
  local h = { 1 / n[1], 1 / n[2], 1 / n[3] }
  local function g(p) return (h[1] ^ p - h[2] ^ p) / (h[2] ^ p - h[3] ^ p) - d1 / d2 end
  local lo, hi = 0.3, 4
  if g(lo) * g(hi) > 0 then return nil end
  for _ = 1, 60 do
    local mid = 0.5 * (lo + hi)
    if g(lo) * g(mid) <= 0 then hi = mid else lo = mid end
  end
  local p = 0.5 * (lo + hi)
  return f[3] - d2 * h[3] ^ p / (h[2] ^ p - h[3] ^ p), p
end

local grids = {}
for _, r in ipairs(runs) do
  if r.Lr and r.backend == main_backend then grids[r.n] = true end
end
local ns = {}
for n in pairs(grids) do ns[#ns + 1] = n end
table.sort(ns)

local length = runs[1] and runs[1].length or "?"
print("Recirculation length L_r / D (rear face to the end of the recirculation on the centreline), steady runs,")
print(string.format("channel %s D, backend %s; 'extrap.' = Richardson from the three finest grids (observed order p);",
                    tostring(length), main_backend))
print(string.format("the verdict: the finest grid within %d%% of Breuer's fit -0.065 + 0.0554 Re", 100 * tol_breuer))
local head = string.format("%-4s %-11s", "Re", "model")
for _, n in ipairs(ns) do head = head .. string.format(" %9s", "D=" .. n) end
print(head .. string.format(" %9s %5s %8s %9s %s", "extrap.", "p", "Breuer", "finest", "verdict"))
for _, Re in ipairs({ 20, 40 }) do
  local ref = sq.breuer.recirculation(Re)
  for _, model in ipairs({ "psi_omega", "projection" }) do
    local row = string.format("%-4d %-11s", Re, model)
    local fs, gs, finest = {}, {}, nil
    for _, n in ipairs(ns) do
      local r = find { model = model, Re = Re, n = n, backend = main_backend }
      local cell = "-"
      if r and type(r.Lr) == "number" then
        cell = string.format("%.4f%s", r.Lr, r.status == "steady" and "" or "*")
        if r.status == "steady" then
          fs[#fs + 1], gs[#gs + 1], finest = r.Lr, n, r.Lr
        end
      elseif r then
        cell = r.status or "?"
      end
      row = row .. string.format(" %9s", cell)
    end
    local ext, p
    if #fs >= 3 then
      ext, p = richardson({ gs[#gs - 2], gs[#gs - 1], gs[#gs] }, { fs[#fs - 2], fs[#fs - 1], fs[#fs] })
    end
    row = row .. string.format(" %9s %5s %8.4f", ext and string.format("%.4f", ext) or "-",
                               p and string.format("%.2f", p) or "-", ref)
    if finest then
      row = row .. string.format(" %9s %s", pct(finest, ref), verdict(math.abs(finest - ref) <= tol_breuer * ref))
    else
      row = row .. "         - no steady run"
    end
    print(row)
  end
end
print("(* not steady: the run hit its wall limit or t_end; left out of the extrapolation)")

print()
print("Shedding at Re = 100 (Strouhal number over the saturated periods, the mean drag and lift amplitude):")
print(string.format("%-11s %-7s %5s %8s %8s %8s %7s %7s %-11s %s", "model", "backend", "D", "St", "cd_mean",
                    "cl_amp", "periods", "spread", "status", "St vs Breuer 0.139"))
local st = {}
for _, r in ipairs(runs) do
  local failed = type(r.status) == "string" and r.status:match("^failed")
  if r.St or (r.Re == 100 and (r.status == "no_shedding" or failed)) then
    local line = string.format("%-11s %-7s %5d %8s %8s %8s %7s %7s %-11s", r.model, r.backend, r.n or 0,
                               r.St and string.format("%.4f", r.St) or "-",
                               r.cd_mean and string.format("%.4f", r.cd_mean) or "-",
                               r.cl_amplitude and string.format("%.4f", r.cl_amplitude) or "-",
                               tostring(r.periods or "-"), r.spread and string.format("%.4f", r.spread) or "-",
                               r.status)
    if r.St and r.Re == 100 then
      local ok = r.status == "periodic" and math.abs(r.St - sq.breuer.St100) <= tol_breuer * sq.breuer.St100
      line = line .. string.format(" %s %s", pct(r.St, sq.breuer.St100), verdict(ok))
      if r.status == "periodic" then
        st[r.n] = st[r.n] or {}
        st[r.n][r.model] = r.backend == main_backend and r.St or st[r.n][r.model]
      end
    end
    print(line)
  end
end
for n, s in pairs(st) do
  local a, b = s.psi_omega, s.projection
  if a and b then
    local rel = math.abs(a - b) / b
    print(string.format("D = %d cells: psi_omega against projection St %.4f / %.4f: %.2f%% apart (within %d%%: %s)",
                        n, a, b, 100 * rel, 100 * tol_models, verdict(rel <= tol_models)))
  end
end

-- The CPU backend on the same machine for the cheapest grid (the same runs on
-- --backend cpu): the two backends must give the same figures.
print()
for _, r in ipairs(runs) do
  if r.backend == "cpu" and main_backend == "cuda" and r.Lr then
    local g = find { model = r.model, Re = r.Re, n = r.n, backend = "cuda" }
    if g and type(g.Lr) == "number" and type(r.Lr) == "number" then
      print(string.format("CPU against CUDA, %s Re %g D = %d: L_r %.6f / %.6f, cd %.6f / %.6f (%s)", r.model, r.Re,
                          r.n, r.Lr, g.Lr, r.cd, g.cd,
                          verdict(math.abs(r.Lr - g.Lr) <= 1e-4 * g.Lr and math.abs(r.cd - g.cd) <= 1e-4 * g.cd)))
    end
  end
end
print()
print("runs (wall seconds, simulated time, steps, status):")
for _, r in ipairs(runs) do
  if r.status == "skipped" then
    print(string.format("  %-26s not run (the budget was spent)", r.name or "?"))
  else
    print(string.format("  %-26s %7s s  t = %-8s %8s steps  %s", r.name or "?", tostring(r.wall or "-"),
                        tostring(r.t or "-"), tostring(r.steps or "-"), tostring(r.status)))
  end
end
