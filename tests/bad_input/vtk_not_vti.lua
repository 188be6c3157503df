-- expect-exit: 1
-- expect-message: vtk_not_vti.lua:5:
-- expect-message: must end in .vti
-- ParaView picks its reader by the extension: a VTK image file must be named .vti.
local out = flow.vtk { file = "flow_%06d.vtk" }
