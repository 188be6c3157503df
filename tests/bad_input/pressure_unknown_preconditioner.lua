-- expect-exit: 1
-- expect-message: pressure.preconditioner = 'jacoby' is not allowed
-- expect-message: did you mean 'jacobi'?
-- A misspelt preconditioner.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "pcg", preconditioner = "jacoby" },
}
