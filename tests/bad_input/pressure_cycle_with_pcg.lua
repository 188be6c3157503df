-- expect-exit: 1
-- expect-message: pressure.cycle is for solver = 'multigrid', not 'pcg'
-- F-cycles are not symmetric: not a CG preconditioner.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "pcg", cycle = "F" },
}
