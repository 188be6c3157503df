-- The checkpoint key: a checkpoint after every N-th step (or every T of simulated time),
-- only the newest `keep` files kept; restoring the newest continues the run.
local function exists(name)
  local f = io.open(flow.output_dir() .. "/" .. name, "rb")
  if f then f:close() end
  return f ~= nil
end
local function cavity(checkpoint)
  return flow.simulation {
    grid = { nx = 12, ny = 12 }, fluid = { nu = 0.01 },
    boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
    time = { steps = 23 },
    checkpoint = checkpoint,
  }
end

local a = cavity { every = 5, keep = 2, file = "steps_%04d.h5" }
a:run()
assert(exists("steps_0015.h5") and exists("steps_0020.h5"), "the newest two checkpoints are there")
assert(not exists("steps_0005.h5") and not exists("steps_0010.h5"), "older checkpoints were removed (keep = 2)")

local b = cavity { every_time = 0.05, keep = 1, file = "time_%04d.h5" }
b:run()
local newest
for s = 23, 1, -1 do
  if exists(string.format("time_%04d.h5", s)) then
    assert(not newest, "keep = 1 leaves one file")
    newest = s
  end
end
assert(newest and newest < 23, "an every_time checkpoint was written")

local c = cavity()
c:restore(string.format("steps_%04d.h5", 20))
assert(c.step == 20, "restored at step 20")
c:run()
assert(c.step == 23 and c:field("u"):get(6, 6) == a:field("u"):get(6, 6), "continued to the same state")
print("checkpoint key: kept steps 15 and 20 of every = 5; every_time kept step " .. newest)
