-- expect-exit: 2
-- expect-args: --set nope=1
-- expect-message: unknown --set name 'nope'
-- expect-message: n
-- A --set name that the case never asks for is a usage error.
local n = param("n", 8)
local sim = flow.simulation {
  grid = { nx = n, ny = n },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
