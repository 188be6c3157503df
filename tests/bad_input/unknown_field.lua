-- expect-exit: 1
-- expect-message: unknown_field.lua:12: unknown field 'vorticty'; did you mean 'vorticity'?
-- expect-message: fields: u, v, p
-- An unknown field name lists the fields there are.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
local w = sim:field("vorticty")
