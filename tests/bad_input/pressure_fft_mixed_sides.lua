-- expect-exit: 1
-- expect-message: solver = 'fft' needs the same pressure condition on left and right
-- expect-message: here left is wall (dp/dn = 0) and right is outflow (p = 0)
-- An inflow/outflow channel: the transforms need the same condition on opposite sides.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.inflow { u = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall() },
  pressure = { solver = "fft" },
}
