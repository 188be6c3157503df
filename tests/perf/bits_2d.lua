-- Prints every value (%.17g) of u, v and p after t = 0.3 of a lid-driven cavity with
-- each pressure solver and of a channel with an inflow profile, an outflow side and a
-- circular obstacle with each solver that applies there, and of psi, vorticity, u, v
-- of a psi_omega cavity, and of fractional_step 2D vortices. Run by two builds (tests/perf/compare_2d_step.sh does), the
-- outputs are identical when a change left the 2D models bit for bit as they were.
local solvers = {
  { solver = "rbsor", omega = 1.8 }, { solver = "cg" }, { solver = "pcg", preconditioner = "jacobi" },
  { solver = "pcg", preconditioner = "multigrid" }, { solver = "pcg", preconditioner = "fft" },
  { solver = "multigrid", cycle = "V" }, { solver = "multigrid", cycle = "F" }, { solver = "fft" },
}
local function dump(sim, tag, names)
  for _, name in ipairs(names or { "u", "v", "p" }) do
    local f = sim:field(name)
    local nx, ny = f:size()
    local parts = {}
    for j = 1, ny do for i = 1, nx do parts[#parts + 1] = string.format("%.17g", f:get(i, j)) end end
    print(tag, name, table.concat(parts, " "))
  end
end
for _, p in ipairs(solvers) do
  local q = { tol = 1e-9, max_iter = 100000 }
  for k, v in pairs(p) do q[k] = v end
  local sim = flow.simulation {
    grid = { nx = 40, ny = 32 }, fluid = { nu = 0.01 },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = { t_end = 0.3 }, pressure = q,
  }
  sim:run()
  dump(sim, "cavity " .. p.solver .. (p.preconditioner or "") .. (p.cycle or ""))
  if p.solver ~= "fft" and p.preconditioner ~= "fft" then
    local ch = flow.simulation {
      grid = { nx = 64, ny = 16, lx = 4, ly = 1 }, fluid = { nu = 0.02 },
      boundaries = { left = flow.inflow { u = function(s, t) return 4 * s * (1 - s) end }, right = flow.outflow(),
                     bottom = flow.wall(), top = flow.wall() },
      obstacles = { flow.circle { x = 1, y = 0.5, r = 0.15 } },
      time = { t_end = 0.3 }, pressure = q,
    }
    ch:run()
    dump(ch, "channel " .. p.solver .. (p.preconditioner or "") .. (p.cycle or ""))
  end
end
local po = flow.simulation {
  model = "psi_omega", grid = { nx = 32, ny = 32 }, fluid = { nu = 0.01 },
  boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
  time = { t_end = 0.3 },
}
po:run()
dump(po, "psi_omega", { "psi", "vorticity", "u", "v" })
-- the fractional_step model in 2D (its solver became a template over the dimension)
for _, adv in ipairs { "quick", "central" } do
  for _, ps in ipairs { "fft", "pcg" } do
    local fs = flow.simulation {
      model = "fractional_step", grid = { nx = 32, ny = 24, lx = 2 * math.pi, ly = 1.5 * math.pi },
      fluid = { nu = 0.01 },
      initial = { u = function(x, y) return math.sin(x) * math.cos(y) + 0.1 * math.sin(3 * x * y) end,
                  v = function(x, y) return -math.cos(x) * math.sin(y) end },
      advection = adv, pressure = { solver = ps, tol = 1e-10 }, time = { t_end = 0.3, cfl = 0.5 },
    }
    fs:run()
    dump(fs, "fractional_step " .. adv .. " " .. ps)
  end
end
