-- expect-exit: 1
-- expect-message: pressure.omega is for solver = 'rbsor', not 'multigrid'
-- A key that the chosen solver would ignore.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "multigrid", omega = 1.8 },
}
