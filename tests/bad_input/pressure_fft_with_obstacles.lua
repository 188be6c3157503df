-- expect-exit: 1
-- expect-message: solver = 'fft' needs an obstacle-free rectangle, and this case has obstacles
-- The FFT solve is only for empty rectangles.
local sim = flow.simulation {
  grid = { nx = 16, ny = 16 },
  fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  obstacles = { flow.rect { x0 = 0.25, y0 = 0.25, x1 = 0.5, y1 = 0.5 } },
  pressure = { solver = "fft" },
}
