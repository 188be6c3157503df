-- expect-exit: 2
-- expect-args: --bench-sizes 64
-- expect-message: --bench-sizes and --bench-repeats go with --bench
-- The harness's options on a case run are a usage error, not silently ignored.
flow.simulation { grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() } }
