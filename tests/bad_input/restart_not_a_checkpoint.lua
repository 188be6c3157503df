-- expect-exit: 2
-- expect-args: --restart /etc/passwd
-- expect-message: --restart: cannot read checkpoint '/etc/passwd'
-- --restart with a file that is there but is no checkpoint: a usage error naming it.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}
