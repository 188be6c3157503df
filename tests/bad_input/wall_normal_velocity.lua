-- expect-exit: 1
-- expect-message: a wall on the top side cannot have a velocity through it (v = 1)
-- expect-message: flow.inflow
-- A wall that would push fluid through itself.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1, v = 1 },
  },
}
