-- expect-exit: 2
-- expect-args: --bench
-- expect-message: --bench runs the harness, not a case: give no case file
-- The benchmark harness takes no case file; asking for both is a usage error.
flow.simulation { grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() } }
