-- Checkpoint and restart: a run interrupted and restarted from its checkpoint gives the
-- fields of the run that was never interrupted, bit for bit (docs/case-language.md,
-- "Checkpoint and restart"). For each model (lbm_swe also with fp16 storage), float and double, with boundary values
-- from Lua functions of time (re-evaluated every few steps: their last values are part
-- of the checkpoint), adaptive dt and a steady monitor. The gpu label reruns this file
-- with --backend cuda.
local N, K = 40, 17   -- steps in all; the checkpoint after K (not a multiple of `every`)

local function projection(precision)
  return flow.simulation {
    grid = { nx = 24, ny = 12, lx = 2, ly = 1 },
    fluid = { nu = 0.02 },
    boundaries = {
      left = flow.inflow { u = function(y, t) return 4 * y * (1 - y) * (1 + 0.5 * math.sin(7 * t)) end, every = 3 },
      right = flow.outflow(),
      bottom = flow.wall(),
      top = flow.wall(),
    },
    obstacles = { flow.circle { x = 0.6, y = 0.45, r = 0.15 } },
    time = { steps = N, cfl = 0.7, steady = 1e-12 },
    pressure = { solver = "cg", tol = 1e-7 },
    precision = precision,
  }
end

local function psi_omega(precision)
  return flow.simulation {
    model = "psi_omega",
    grid = { nx = 16, ny = 16 },
    fluid = { Ra = 1e4, Pr = 0.71 },
    boundaries = {
      left = flow.wall { T = flow.dirichlet(function(y, t) return 1 + 0.2 * math.sin(9 * t) * y end) },
      right = flow.wall { T = flow.dirichlet(0) },
      bottom = flow.wall { T = flow.neumann(0) },
      top = flow.wall { u = 1, T = flow.neumann(function(x, t) return 0.1 * math.sin(3 * t) end) },
    },
    initial = { T = function(x, y) return 1 - x end },
    time = { steps = N, cfl = 0.8, steady = 1e-12 },
    precision = precision,
  }
end

-- The lid cavity with ADI steps and the stream function by line relaxation, whose
-- parameter cycle runs on across steps (saved in the checkpoint).
local function psi_omega_adi(precision)
  return flow.simulation {
    model = "psi_omega",
    grid = { nx = 16, ny = 12 },
    fluid = { nu = 0.01 },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = { steps = N, dt = 0.05, scheme = "adi", steady = 1e-12 },
    pressure = { solver = "adi", tol = 1e-3 },
    precision = precision,
  }
end

local function fractional_step(precision)
  return flow.simulation {
    model = "fractional_step",
    grid = { nx = 16, ny = 16, lx = 2 * math.pi, ly = 2 * math.pi },
    fluid = { nu = 0.05 },
    initial = {
      u = function(x, y) return math.sin(x) * math.cos(y) + 0.1 * math.sin(2 * y) end,
      v = function(x, y) return -math.cos(x) * math.sin(y) end,
    },
    time = { steps = N, cfl = 0.5, steady = 1e-12 },
    precision = precision,
  }
end

-- 3D: a duct with walls (one moving), periodic along z, driven by a body force
local function fractional_step_3d(precision)
  return flow.simulation {
    model = "fractional_step",
    grid = { nx = 8, ny = 6, nz = 6 },
    fluid = { nu = 0.05, force = { 0, 0, 1 } },
    boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { w = 0.5 },
                   back = flow.periodic(), front = flow.periodic() },
    initial = { u = function(x, y, z) return 0.1 * math.sin(6 * z) end },
    time = { steps = N, cfl = 0.5, steady = 1e-12 },
    precision = precision,
  }
end

local function lbm_swe(precision, storage)
  return flow.simulation {
    model = "lbm_swe",
    grid = { nx = 24, ny = 8, lx = 24, ly = 8 },
    fluid = { gravity = 9.81, nu = 0.05 },
    bed = function(x, y) return 0.1 * math.exp(-((x - 12) / 3) ^ 2) end,
    friction = { manning = 0.02 },
    initial = { h = function(x, y) return x < 8 and 1.2 or 1.0 end },
    boundaries = {
      left = flow.inflow { q = function(s, t) return 0.5 + 0.1 * math.sin(3 * t) end, every = 3 },
      right = flow.outflow { h = function(t) return 1.0 + 0.05 * math.sin(2 * t) end },
      bottom = flow.wall(),
      top = flow.slip(),
    },
    time = { steps = N, steady = 1e-12 },
    precision = precision,
    storage = storage,
  }
end

local function lbm_swe_fp16(precision) return lbm_swe(precision, "fp16") end

local function same(a, b, what)
  for _, name in ipairs { "u", "v", "w", "p", "vorticity", "stream", "T", "h" } do
    local ok, fa = pcall(a.field, a, name)
    if ok then
      local fb = b:field(name)
      for k = 1, fa.nz do
        for j = 1, fa.ny do
          for i = 1, fa.nx do
            local x, y
            if fa.nz > 1 then x, y = fa:get(i, j, k), fb:get(i, j, k) else x, y = fa:get(i, j), fb:get(i, j) end
            if x ~= y and not (x ~= x and y ~= y) then
              error(string.format("%s: field %s differs at (%d, %d, %d): %.17g uninterrupted, %.17g restarted",
                                  what, name, i, j, k, x, y))
            end
          end
        end
      end
    end
  end
  assert(a.step == b.step and a.time == b.time and a.dt == b.dt,
         string.format("%s: step/time/dt %d %.17g %.17g vs %d %.17g %.17g", what, a.step, a.time, a.dt,
                       b.step, b.time, b.dt))
end

local both = { "double", "float" }
for _, build in ipairs { { "projection", projection, both }, { "psi_omega", psi_omega, both },
                         { "psi_omega_adi", psi_omega_adi, both },
                         { "fractional_step", fractional_step, both },
                         { "fractional_step_3d", fractional_step_3d, both }, { "lbm_swe", lbm_swe, both },
                         { "lbm_swe_fp16", lbm_swe_fp16, { "float" } } } do
  for _, precision in ipairs(build[3]) do
    local what = build[1] .. " in " .. precision
    local whole = build[2](precision)
    whole:run()
    assert(whole.step == N, what .. ": the uninterrupted run stopped early")

    local first = build[2](precision)
    first:step(K)
    local file = first:checkpoint(build[1] .. "_" .. precision .. "_%06d.h5")
    assert(file:find(string.format("%06d", K), 1, true), "the checkpoint file name carries the step: " .. file)
    first:step(3)  -- the state after the checkpoint must not leak into the restored one

    local second = build[2](precision)
    local seen = 0
    second:every(5, function(s) seen = seen + 1 end)
    second:restore(file)
    assert(second.step == K, what .. ": restored at step " .. second.step)
    second:run()
    same(whole, second, what)
    assert(seen == (N // 5) - (K // 5), what .. ": every(5) fired " .. seen .. " times after the restore")
    print(what .. ": restarted at step " .. K .. ", equal bit for bit at step " .. N)
  end
end

-- A checkpoint of another case is refused, with a message.
local other = flow.simulation {
  grid = { nx = 24, ny = 12, lx = 2, ly = 1 }, fluid = { nu = 0.03 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
}
local ok, err = pcall(other.restore, other, "projection_double_" .. string.format("%06d", K) .. ".h5")
assert(not ok and err:find("different case", 1, true), "a different case was not refused: " .. tostring(err))
local p = projection("double")
ok, err = pcall(p.restore, p, "projection_float_" .. string.format("%06d", K) .. ".h5")
assert(not ok and err:find("float precision", 1, true), "another precision was not refused: " .. tostring(err))
print("refused: " .. err)
