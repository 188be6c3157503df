-- expect-exit: 1
-- expect-message: batch:run: simulation 2 has no stop condition
-- Every member needs its own stop condition.
local walls = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } }
local a = flow.simulation { grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 }, boundaries = walls, time = { steps = 5 } }
local b = flow.simulation { grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 }, boundaries = walls }
flow.batch { a, b }:run()
