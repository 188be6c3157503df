-- expect-exit: 1
-- expect-message: vtk_unknown_field.lua:13: flow.vtk
-- expect-message: unknown field 'preasure'
-- A misspelt field in flow.vtk's list is reported when the callback first writes,
-- naming flow.vtk (where it was made) and the field.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
sim:every(1, flow.vtk { fields = { "u", "preasure" }, file = "f_%04d.vti" })
sim:step(2)
