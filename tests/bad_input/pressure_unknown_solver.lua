-- expect-exit: 1
-- expect-message: pressure.solver = 'multigird' is not allowed
-- expect-message: did you mean 'multigrid'?
-- A misspelt pressure solver name.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "multigird" },
}
