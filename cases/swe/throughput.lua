-- How fast lbm_swe steps a large basin with walls, on one rank or on several
-- (mpirun -np N; docs/mpi.md). Prints cell updates per second over `steps` steps
-- after `warmup` steps (the first ones pay for module loads and the first halo
-- buffers). The water is at rest (depth h) unless u, v (m/s) set it moving; the
-- initial state is numbers, not Lua functions, so setting up 8192^2 cells stays short.
--
--   flowlua cases/swe/throughput.lua --set n=8192
--   flowlua cases/swe/throughput.lua --set n=8192 --set u=0.5 --set v=0.3     (moving)
--   mpirun -np 2 flowlua cases/swe/throughput.lua --set n=8192           (strong scaling)
--   mpirun -np 2 flowlua cases/swe/throughput.lua --set nx=4096 --set ny=8192   (weak)
local n = param("n", 1024)
local nx, ny = param("nx", n), param("ny", n)
local warmup, steps = param("warmup", 20), param("steps", 200)
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = nx, ny = ny, lx = nx, ly = ny },  -- 1 m cells
  fluid = { gravity = 9.81, nu = param("nu", 0.5) },
  initial = { h = param("h", 10), u = param("u", 0), v = param("v", 0) },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  precision = param("precision", "float"),
  storage = param("storage", "same"),
  time = { steps = warmup + steps },  -- dt from time.cfl
}
sim:step(warmup)
local r = sim:step(steps)
print(string.format("lbm_swe %d x %d, %s: %d steps in %.3f s, %.0f million cell updates per second",
                    nx, ny, sim.backend, steps, r.wall, nx * ny * steps / r.wall / 1e6))
