local sim = flow.simulation { grid = { nx = 8, ny = 8 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } } }
flow.write_png(sim:field("u"), "../../escape.png")
