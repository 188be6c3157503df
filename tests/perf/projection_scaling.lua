-- The projection model's step on a large grid, for scaling runs over MPI ranks and
-- GPUs (tests/gpu/mpi_projection_scaling.sh, docs/mpi.md): a lid-driven cavity of
-- nx x ny cells with a fixed dt (every run takes the same steps), the pressure by
-- multigrid (or --set solver=...). The summary line of sim:run() on stderr gives the
-- wall time and cell updates per second; this prints the last step's pressure
-- iterations and, on several ranks, halo exchanges (sim:diagnostics() gathers the
-- whole grid: once, after the run).
local nx, ny = param("nx", 4096), param("ny", 4096)
local steps = param("steps", 50)
local sim = flow.simulation {
  grid = { nx = nx, ny = ny, lx = nx / ny, ly = 1 },
  -- nu small enough that the fixed dt keeps inside the explicit diffusion limit
  -- (nu dt / dx^2 = 0.2 nu ny <= 1/4) up to ny = 12288; 1e-3 blew up at ny = 2048.
  fluid = { nu = param("nu", 1e-4) },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = steps, dt = 0.2 / ny },
  -- gather: pressure.multigrid_gather (multigrid only; its default when 0)
  pressure = { solver = param("solver", "multigrid"), tol = param("tol", 1e-6),
               multigrid_gather = param("gather", 0) > 0 and param("gather", 0) or nil },
}
sim:run()
local d = sim:diagnostics()
-- pressure_exchanges: the halo exchanges of the last solve (several ranks only).
print(string.format("SCALING nx=%d ny=%d steps=%d last_pressure_iterations=%d%s", nx, ny, steps,
                    d.pressure_iterations,
                    d.pressure_exchanges and string.format(" last_pressure_exchanges=%d", d.pressure_exchanges) or ""))
