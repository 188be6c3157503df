-- What flowlua wrote, in plain CSV (every number round-trips), for check_vti.py to
-- compare with what VTK's reader reads from the .vti files.
--   require("expect").write(sim, "final", {"u", "v", ...})
-- writes <tag>_meta.csv (grid, time, step, expected array names) and <tag>_cells.csv
-- (i, j, solid and each field at every cell).
local M = {}

function M.write(sim, tag, fields, arrays)
  local meta = flow.csv(tag .. "_meta.csv")
  meta:row { { "nx", sim.nx }, { "ny", sim.ny }, { "dx", sim.dx }, { "dy", sim.dy },
             { "time", sim.time }, { "step", sim.step }, { "arrays", table.concat(arrays, " ") } }
  local snaps = {}
  for k, name in ipairs(fields) do snaps[k] = sim:field(name) end
  local cells = flow.csv(tag .. "_cells.csv")
  for j = 1, sim.ny do
    for i = 1, sim.nx do
      local row = { { "i", i }, { "j", j } }
      for k, name in ipairs(fields) do row[#row + 1] = { name, snaps[k]:get(i, j) } end
      cells:row(row)
    end
  end
end

return M
