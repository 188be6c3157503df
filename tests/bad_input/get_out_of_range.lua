-- expect-exit: 1
-- expect-message: get_out_of_range.lua:13: u:get(9, 1): index out of range; i must be in 1..8 and j in 1..8
-- Reading outside the grid.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
local u = sim:field("u")
print(u:get(8, 8))
print(u:get(9, 1))
