flow.simulation { grid = { nx = 65536, ny = 32768 }, fluid = { nu = 0.1 },
  initial = { u = function(x, y) return 0 end },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } } }
