-- expect-exit: 1
-- expect-message: vtk_unwritable.lua:12:
-- expect-message: cannot write
-- Writing a VTK file where no file can be made.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
flow.write_vtk(sim, "/proc/flowlua_no_such_dir/f.vti")
