-- The projection model on several MPI ranks gives the fields of one rank to the
-- pressure solver's tolerance, and the same pressure-solver iterations within one
-- (docs/mpi.md, "projection"). tests/mpi/close_fields.sh runs this case on 1 rank (no
-- mpirun) and under mpirun -np 2 and 4 with the splits it is given, and compares what
-- it prints:
--   F case field i j value   every cell of u, v and p (cell centres)
--   I case step iterations   the pressure solve of every step
--   E ...                    lines that must be the same (step counts)
-- Cases: the lid-driven cavity (walls and a moving lid, no outflow: p's mean fixed),
-- a channel with a time-dependent inflow profile (a Lua function, cut per block), an
-- outflow and obstacles across and beside the lines where the blocks meet; and a
-- channel periodic in x driven by a body force with an obstacle across the periodic
-- seam and one beside the blocks' boundaries. Each with conjugate gradients and multigrid (the cavity also with
-- multigrid-preconditioned CG, and a coarser cavity with red-black SOR, whose sweeps
-- are many). The grids are large enough that multigrid keeps two levels on the blocks
-- before it gathers (linalg/multigrid.hpp) with pressure.multigrid_gather = 1024 (the
-- default, 16384 cells, would gather these small grids' first coarse level).
local px, py = param("px", 0), param("py", 0)
local N = param("steps", 8)
local tol = param("tol", 1e-10)
local decomposition = px > 0 and { px = px, py = py } or nil
local only = param("only", "")  -- one case by name (for a look at one), or all

local function report(name, sim, iterations)
  for _, field in ipairs { "u", "v", "p" } do
    local f = sim:field(field)
    local nx, ny = f:size()
    for j = 1, ny do
      for i = 1, nx do print(string.format("F %s %s %d %d %.17g", name, field, i, j, f:get(i, j))) end
    end
  end
  for step, it in ipairs(iterations) do print(string.format("I %s %d %d", name, step, it)) end
  local d = sim:diagnostics()
  print(string.format("E %s steps %d", name, d.step))
  -- Something happened (a comparison of zeros would test nothing).
  assert(d.max_speed > 1e-3, name .. ": the flow did not move")
end

local function run(name, spec, solvers)
  if only ~= "" and only ~= name then return end
  for _, solver in ipairs(solvers) do
    spec.decomposition = decomposition
    -- Bodies of exact shape are immersed by default on one rank and staircase cells on
    -- several (kernels.bodies, docs/mpi.md): the comparison is of the staircase.
    spec.kernels = { bodies = "staircase" }
    spec.time = { steps = N, cfl = 0.5 }
    spec.pressure = { solver = solver.solver, preconditioner = solver.preconditioner, tol = solver.tol or tol,
                      max_iter = 20000, mixed = solver.mixed, multigrid_gather = solver.multigrid_gather,
                      cycle = solver.cycle }
    local sim = flow.simulation(spec)
    local iterations = {}
    sim:every(1, function(s) iterations[#iterations + 1] = s:diagnostics().pressure_iterations end)
    sim:run()
    report(name .. "_" .. solver.solver .. (solver.preconditioner and ("_" .. solver.preconditioner) or "") ..
           (solver.mixed and "_mixed" or "") .. (solver.cycle and ("_" .. solver.cycle) or ""), sim, iterations)
  end
end

local cg, mg = { solver = "cg" }, { solver = "multigrid", multigrid_gather = 1024 }

run("cavity", {
  grid = { nx = 96, ny = 96, lx = 1, ly = 1 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}, { cg, mg, { solver = "pcg", preconditioner = "multigrid", multigrid_gather = 1024 } })

run("cavity48", {
  grid = { nx = 48, ny = 48, lx = 1, ly = 1 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}, { { solver = "rbsor", tol = 1e-8 } })

-- The splits below cut this grid at x = 1, 2, 3 (cells 32, 64, 96) and y = 0.75 (row
-- 24). The first obstacle lies across x = 2 and y = 0.75; the second ends at x = 2 and
-- the third at y = 0.75, so their faces mirror faces across a block boundary. (The
-- inflow, a function of time, refills the boundaries after every step: see "periodic"
-- for obstacles whose faces are filled once a step.)
run("channel", {
  grid = { nx = 128, ny = 48, lx = 4, ly = 1.5 },
  fluid = { nu = 0.02 },
  obstacles = { flow.rect { x0 = 1.8, y0 = 0.55, x1 = 2.3, y1 = 0.95 },
                flow.rect { x0 = 0.8, y0 = 0.1, x1 = 2.0, y1 = 0.3 },
                flow.rect { x0 = 2.6, y0 = 0.25, x1 = 3.2, y1 = 0.75 } },
  boundaries = {
    left = flow.inflow { u = function(s, t) return 4 * s * (1.5 - s) / 1.5 ^ 2 * (1 + 2 * t) end },
    right = flow.outflow(),
    bottom = flow.wall(), top = flow.wall(),
  },
}, { cg, mg })

-- In float with the pressure refined in double (pressure.mixed).
run("channel_float", {
  grid = { nx = 128, ny = 48, lx = 4, ly = 1.5 },
  fluid = { nu = 0.02 },
  precision = "float",
  obstacles = { flow.rect { x0 = 1.8, y0 = 0.55, x1 = 2.3, y1 = 0.95 } },
  boundaries = {
    left = flow.inflow { u = function(s, t) return 4 * s * (1.5 - s) / 1.5 ^ 2 * (1 + 2 * t) end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
}, { { solver = "multigrid", mixed = true, multigrid_gather = 1024 } })

run("periodic", {
  grid = { nx = 96, ny = 48, lx = 2, ly = 1 },
  fluid = { nu = 0.02, gravity = { 2, 0 } },
  -- Across the periodic seam, and one ending at x = 1 and y = 0.5 (cell 48 and row 24,
  -- where the splits below cut this grid).
  obstacles = { function(x, y) return (x < 0.15 or x > 1.9) and y > 0.3 and y < 0.6 end,
                flow.rect { x0 = 0.6, y0 = 0.2, x1 = 1.0, y1 = 0.5 } },
  initial = { u = function(x, y) return 4 * y * (1 - y) end },
  boundaries = { left = flow.periodic(), right = flow.periodic(), bottom = flow.wall(), top = flow.slip() },
}, { cg, mg })

-- Blocks so narrow on the coarse levels (4 cells across with 4 x 1 and 2 x 2 ranks)
-- that their halo is shallower than multigrid asks for (linalg/padded_block.hpp):
-- more exchanges, the same cycles; V- and F-cycles.
run("narrow", {
  grid = { nx = 64, ny = 32, lx = 2, ly = 1 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}, { { solver = "multigrid", multigrid_gather = 16 }, { solver = "multigrid", cycle = "F", multigrid_gather = 16 },
     { solver = "pcg", preconditioner = "multigrid", multigrid_gather = 16 } })
