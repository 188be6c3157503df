-- expect-exit: 1
-- expect-message: flow.study.vary["fluid.Re"] must be a non-empty list
-- Every varied key needs at least one value.
flow.study { base = { grid = { nx = 16, ny = 16 }, time = { steps = 5 } }, vary = { ["fluid.Re"] = {} } }
