-- VTK output on several MPI ranks is a parallel set: a .pvti and one .vti piece a
-- rank (docs/mpi.md, "Files"). tests/mpi/vtk_pieces.sh runs this case on 1 rank (one
-- .vti per image) and under mpirun -np 2 and 4, and tests/mpi/check_pvti.py reads
-- both with VTK's own readers: the same arrays, cell for cell.
-- Both models that run on several ranks, each in its own folder: flow.vtk callbacks
-- (with their .pvd collection), flow.write_vtk of a simulation and of one field.
local px, py = param("px", 0), param("py", 0)
local decomposition = px > 0 and { px = px, py = py } or nil

-- lbm_swe: a hump of water in a box periodic in x (split across the period on
-- several blocks), an obstacle across the blocks' boundaries, a bed.
local swe = flow.simulation {
  model = "lbm_swe",
  output = "swe",
  decomposition = decomposition,
  grid = { nx = 40, ny = 24, lx = 4, ly = 2.4 },
  fluid = { gravity = 9.81, nu = 0.01 },
  bed = function(x, y) return 0.05 * math.exp(-((x - 3) ^ 2 + (y - 1) ^ 2)) end,
  obstacles = { flow.circle { x = 2.0, y = 1.2, r = 0.3 } },
  initial = { h = function(x, y) return 1 + 0.2 * math.exp(-((x - 1.2) ^ 2 + (y - 0.7) ^ 2) / 0.1) end,
              u = function(x, y) return 0.3 * y end },
  boundaries = { left = flow.periodic(), right = flow.periodic(), bottom = flow.wall(), top = flow.slip() },
  time = { steps = 12, dt = 0.01 },
}
swe:every(6, flow.vtk { file = "swe_%04d.vti" })
swe:run()
flow.write_vtk(swe, "swe_final.vti", { fields = { "h", "u", "v" }, compress = false })
flow.write_vtk(swe:field("h"), "swe_h.vti")

-- projection: a channel with an obstacle across the blocks' boundaries, an inflow and
-- an outflow, multigrid (whose fields on several ranks are those of one rank bit for
-- bit, docs/mpi.md).
local ch = flow.simulation {
  output = "channel",
  decomposition = decomposition,
  grid = { nx = 64, ny = 32, lx = 2, ly = 1 },
  fluid = { nu = 0.02 },
  obstacles = { flow.rect { x0 = 0.8, y0 = 0.3, x1 = 1.3, y1 = 0.7 } },
  -- the rect is off the grid lines: immersed by default on one rank, cells on several
  -- (kernels.bodies, docs/mpi.md); the comparison is of the staircase on every count
  kernels = { bodies = "staircase" },
  boundaries = {
    left = flow.inflow { u = function(s) return 4 * s * (1 - s) end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  time = { steps = 8, cfl = 0.5 },
  pressure = { solver = "multigrid", tol = 1e-10 },
}
ch:every(4, flow.vtk { file = "ch_%04d.vti" })
ch:run()
flow.write_vtk(ch, "ch_final.vti")
