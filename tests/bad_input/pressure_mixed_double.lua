-- expect-exit: 1
-- expect-message: pressure.mixed = true refines a float solve in double
-- expect-message: precision = "float"
-- Mixed precision is for float cases.
flow.simulation {
  grid = { nx = 16, ny = 16 }, fluid = { nu = 0.01 }, precision = "double",
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { mixed = true }, time = { steps = 2 },
}
