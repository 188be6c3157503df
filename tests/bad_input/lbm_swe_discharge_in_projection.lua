-- expect-exit: 1
-- expect-message: flow.inflow{ q = ... } (a discharge) applies to model = 'lbm_swe' only
-- A discharge inflow is a shallow-water condition.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.inflow { q = 1 }, right = flow.outflow(), bottom = flow.wall(), top = flow.wall() },
  time = { steps = 1 },
}
sim:run()
