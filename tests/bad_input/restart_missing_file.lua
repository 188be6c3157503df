-- expect-exit: 2
-- expect-args: --restart /proc/no_such_checkpoint.h5
-- expect-message: --restart: cannot read checkpoint '/proc/no_such_checkpoint.h5': no such file, or not an HDF5 file
-- --restart with a file that is not there: a usage error naming it.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}
