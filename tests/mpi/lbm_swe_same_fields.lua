-- lbm_swe on several MPI ranks gives the fields of one rank bit for bit
-- (docs/mpi.md). tests/mpi/same_fields.sh runs this case on 1 rank (no mpirun) and
-- under mpirun -np 2 and 4 with the splits below, and compares what it prints: a hash
-- of every value of h, u and v (as hex floats, exact) and the diagnostics.
-- Cases: periodic x (split across the period), walls and slip, a bed with friction,
-- obstacles, inflow and outflow whose values change with time (sides cut per block),
-- and the 16-bit storage.
local px, py = param("px", 0), param("py", 0)
local N = param("steps", 30)
local decomposition = px > 0 and { px = px, py = py } or nil

-- FNV-1a over the exact values of a field, so one changed bit anywhere shows.
local function hash(f)
  local nx, ny = f:size()
  local h = 0xcbf29ce484222325
  for j = 1, ny do
    for i = 1, nx do
      for c in string.format("%a;", f:get(i, j)):gmatch(".") do
        h = (h ~ c:byte()) * 0x100000001b3
      end
    end
  end
  return string.format("%016x", h)
end

local function report(name, sim)
  for _, field in ipairs { "h", "u", "v" } do print(name, field, hash(sim:field(field))) end
  local d = sim:diagnostics()
  print(name, "volume", string.format("%a", d.volume), "energy", string.format("%a", d.energy),
        "max_speed", string.format("%a", d.max_speed))
  -- Something happened: the flow is not at rest (a test of nothing would compare zeros).
  assert(d.max_speed > 1e-4, name .. ": the flow did not move")
end

local function run(name, spec)
  spec.model = "lbm_swe"
  spec.decomposition = decomposition
  spec.time = { steps = N, dt = spec.dt or 0.01 }
  spec.dt = nil
  local sim = flow.simulation(spec)
  sim:run()
  report(name, sim)
end

-- A hump of water in a box periodic in x, walls and slip in y.
run("periodic", {
  grid = { nx = 48, ny = 20, lx = 4.8, ly = 2 },
  fluid = { gravity = 9.81, nu = 0.01 },
  initial = { h = function(x, y) return 1 + 0.2 * math.exp(-((x - 1.2) ^ 2 + (y - 0.7) ^ 2) / 0.1) end,
              u = function(x, y) return 0.3 * y end },
  boundaries = { left = flow.periodic(), right = flow.periodic(), bottom = flow.wall(), top = flow.slip() },
})

-- A channel over a bed with friction and an island; discharge in at the left that
-- changes with time (re-evaluated every step), a tide at the right.
run("channel", {
  grid = { nx = 40, ny = 24, lx = 4, ly = 2.4 },
  fluid = { gravity = 9.81, nu = 0.02 },
  bed = function(x, y) return 0.1 * math.exp(-((x - 2) ^ 2 + (y - 1.1) ^ 2)) end,
  friction = { manning = 0.02 },
  obstacles = { flow.circle { x = 2.6, y = 1.3, r = 0.3 } },
  initial = { eta = 1.0 },
  boundaries = {
    left = flow.inflow { q = function(s, t) return 0.3 * (1 + s) * (1 + 5 * t) end },
    right = flow.outflow { h = function(t) return 1 + 0.05 * math.sin(20 * t) end },
    bottom = flow.wall(), top = flow.wall(),
  },
})

-- The 16-bit storage (float arithmetic) on a dam break with a bed, periodic in y.
run("fp16", {
  grid = { nx = 36, ny = 32, lx = 3.6, ly = 3.2 },
  fluid = { gravity = 9.81, nu = 0.01 },
  precision = "float",
  storage = "fp16",
  bed = function(x, y) return 0.05 * math.sin(x) * math.cos(y) end,
  initial = { eta = function(x, y) return x < 1.5 and 1.3 or 1.0 end },
  boundaries = { left = flow.wall(), right = flow.slip(), bottom = flow.periodic(), top = flow.periodic() },
})
