-- expect-exit: 1
-- expect-message: solver = 'fft' needs an obstacle-free rectangle, and this case has obstacles
-- The FFT solve is only for empty rectangles.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  -- Obstacle cells (a predicate; a flow.rect would be an immersed body, which the FFT
  -- solve can take).
  obstacles = { function(x, y) return x > 0.25 and x < 0.5 and y > 0.25 and y < 0.5 end },
  pressure = { solver = "fft" },
}
