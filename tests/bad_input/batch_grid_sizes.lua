-- expect-exit: 1
-- expect-message: flow.batch: simulation 2
-- expect-message: 16 x 8 cells
-- expect-message: one model, backend, precision, grid size and kernel plan
-- Members of a batch step together: they must share the grid size.
local walls = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } }
local a = flow.simulation { grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 }, boundaries = walls, time = { steps = 5 } }
local b = flow.simulation { grid = { nx = 16, ny = 8 }, fluid = { nu = 0.01 }, boundaries = walls, time = { steps = 5 } }
flow.batch { a, b }
