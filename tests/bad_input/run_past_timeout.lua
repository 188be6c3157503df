-- expect-exit: 4
-- expect-args: --timeout 0.5
-- expect-message: interrupted by the --timeout of 0.5 s at step
-- expect-message: checkpoint written to
-- expect-message: --restart
-- A run still going at --timeout stops between two steps and writes a checkpoint to
-- continue from (exit code 4).
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = 100000000 },
}
sim:run()
