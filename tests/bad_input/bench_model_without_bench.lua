-- expect-exit: 2
-- expect-args: --bench-model fractional_step
-- expect-message: --bench-model goes with --bench
-- The harness's model choice on a case run is a usage error, not silently ignored.
flow.simulation { grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() } }
