-- expect-exit: 1
-- expect-message: set_read_only.lua:12: speed:set: field 'speed' is read-only
-- Writing into a derived field.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
local speed = sim:field("speed")
speed:set(1, 1, 2.0)
