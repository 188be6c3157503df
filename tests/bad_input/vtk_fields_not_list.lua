-- expect-exit: 1
-- expect-message: vtk_fields_not_list.lua:5:
-- expect-message: must be a list of field names
-- fields = "u" (a string, not a list).
local out = flow.vtk { fields = "u" }
