-- expect-exit: 1
-- expect-message: flow.batch.dt
-- expect-message: shared
-- dt is "own" or "shared".
local walls = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } }
local a = flow.simulation { grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 }, boundaries = walls, time = { steps = 5 } }
flow.batch { a, dt = "common" }
