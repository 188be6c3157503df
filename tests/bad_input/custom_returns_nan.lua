-- expect-exit: 1
-- expect-message: flow.custom function on the top side returned
-- expect-message: nan at x = 0.0625, t = 0.
-- expect-message: custom_returns_nan.lua:15:
-- A user boundary callback that goes bad later in the run is caught between steps.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(),
    top = flow.custom(function(side, x, t) if t > 0 then return 0 / 0, 0 end return 1, 0 end),
  },
  time = { steps = 5 },
}
sim:run()
