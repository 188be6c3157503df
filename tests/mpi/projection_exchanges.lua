-- The halo exchanges of the distributed pressure solvers (docs/mpi.md, "The pressure
-- solvers"), counted by sim:diagnostics().pressure_exchanges, on 2 x 2 ranks:
--   multigrid  per solve 1 + 2 L n for n V-cycles and L levels on the blocks (the
--              right-hand side's exchange, the iterate's before the first residual
--              norm, then per cycle and level one exchange going down and one going
--              up; the finest level's down exchange is the one before the next norm).
--              With a halo one cell deep it was 11 L n + n + 1.
--   rbsor      at most one exchange per 4 sweeps (with a halo one cell deep: two per
--              sweep and one per residual check).
-- Every rank runs this and asserts; a failure stops all ranks with the message.
-- Run: mpirun -np 4 flowlua projection_exchanges.lua
local cavity = {
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  decomposition = { px = 2, py = 2 },
  time = { steps = 6, cfl = 0.5 },
}

local function run(name, spec, check)
  local sim = flow.simulation(spec)
  local total_it, total_x, steps = 0, 0, 0
  sim:every(1, function(s)
    local d = s:diagnostics()
    local n, x = d.pressure_iterations, d.pressure_exchanges
    assert(x ~= nil, name .. ": no pressure_exchanges (not on several ranks?)")
    check(n, x, d.step)
    total_it, total_x, steps = total_it + n, total_x + x, steps + 1
  end)
  sim:run()
  assert(steps > 0 and total_it > 0, name .. ": no solve ran")
  print(string.format("EXCHANGES %s steps %d iterations %d exchanges %d (%.2f per iteration)", name, steps,
                      total_it, total_x, total_x / total_it))
end

-- Multigrid, 96 x 96 on 2 x 2 blocks, gathered from 24 x 24 (576 <= 1024 cells):
-- 96 x 96 and 48 x 48 on the blocks, L = 2.
local function multigrid_check(name, L)
  return function(n, x, step)
    if n > 0 then
      assert(x == 1 + 2 * L * n, string.format("%s step %d: %d V-cycles made %d exchanges, expected 1 + 2 * %d * %d = %d",
                                               name, step, n, x, L, n, 1 + 2 * L * n))
    end
  end
end
local mg = {}
for k, v in pairs(cavity) do mg[k] = v end
mg.grid = { nx = 96, ny = 96, lx = 1, ly = 1 }
mg.pressure = { solver = "multigrid", tol = 1e-10, multigrid_gather = 1024 }
run("cavity_multigrid", mg, multigrid_check("cavity_multigrid", 2))

-- The same with an outflow and an obstacle across the blocks' boundaries (128 x 48:
-- 128 x 48 and 64 x 24 on the blocks, gathered from 32 x 12).
run("channel_multigrid", {
  grid = { nx = 128, ny = 48, lx = 4, ly = 1.5 },
  fluid = { nu = 0.02 },
  obstacles = { flow.rect { x0 = 1.8, y0 = 0.55, x1 = 2.3, y1 = 0.95 } },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall() },
  decomposition = { px = 2, py = 2 },
  time = { steps = 6, cfl = 0.5 },
  pressure = { solver = "multigrid", tol = 1e-10, multigrid_gather = 1024 },
}, multigrid_check("channel_multigrid", 2))

-- Red-black SOR, 48 x 48 (blocks of 24 x 24: a ring 11 cells deep).
local sor = {}
for k, v in pairs(cavity) do sor[k] = v end
sor.grid = { nx = 48, ny = 48, lx = 1, ly = 1 }
sor.time = { steps = 3, cfl = 0.5 }
sor.pressure = { solver = "rbsor", tol = 1e-8, max_iter = 20000 }
run("cavity_rbsor", sor, function(n, x, step)
  assert(x <= n / 4 + 2, string.format("cavity_rbsor step %d: %d sweeps made %d exchanges, more than %d / 4 + 2",
                                       step, n, x, n))
end)
