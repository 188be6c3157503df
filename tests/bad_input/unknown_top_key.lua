-- expect-exit: 1
-- expect-message: unknown_top_key.lua:5: unknown key 'gird' in flow.simulation; did you mean 'grid'?
-- An unknown top-level key is reported at the flow.simulation line, with a suggestion.

local sim = flow.simulation {
  gird = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
