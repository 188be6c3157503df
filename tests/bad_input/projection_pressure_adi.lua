-- expect-exit: 1
-- expect-message: pressure.solver = 'adi' is the psi_omega model's line relaxation of the stream function
local sim = flow.simulation{
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.01 },
  boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
  pressure = { solver = "adi" },
  time = { steps = 2 },
}
sim:run()
