-- expect-exit: 1
-- expect-message: fluid.Ra needs fluid.Pr
-- Ra alone does not fix the viscosity.
flow.simulation {
  model = "psi_omega", grid = { nx = 8, ny = 8 }, fluid = { Ra = 1e4 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
}
