-- expect-exit: 1
-- expect-message: png_unwritable.lua:12:
-- expect-message: cannot write
-- Writing an image where no file can be made.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
flow.write_png(sim:field("speed"), "/proc/flowlua_no_such_dir/speed.png")
