-- expect-exit: 1
-- expect-message: covers no grid cell: in the psi_omega model a cell belongs to a body when its four corner nodes are inside
-- A circle between the nodes: it holds a node or two, but no whole cell.
flow.simulation {
  model = "psi_omega", grid = { nx = 16, ny = 16 }, fluid = { nu = 0.1 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.05 } },
}
