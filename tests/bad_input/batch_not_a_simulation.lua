-- expect-exit: 1
-- expect-message: flow.batch: entry 2 is
-- expect-message: not a simulation
-- A batch lists simulations only.
local walls = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } }
local a = flow.simulation { grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 }, boundaries = walls, time = { steps = 5 } }
flow.batch { a, { grid = { nx = 16, ny = 16 } } }
