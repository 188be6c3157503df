-- expect-exit: 1
-- expect-message: this snapshot was taken at step 0 and the simulation is at step 1
-- Writing into a snapshot after the simulation moved on would overwrite newer values.
local sim = flow.simulation {
  grid = { nx = 8, ny = 8 },
  fluid = { nu = 0.1 },
  boundaries = {
    left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 },
  },
}
local p = sim:field("p")
p:set(1, 1, 0.5)
sim:step(1)
p:set(1, 1, 0.25)
