-- model = "lbm_swe" through the case language: the bed from flow.heightmap (a 32 x 16
-- grey ramp, black = 0.1 m, white = 0.5 m, data/ramp_heightmap.png), a flat surface
-- initial = { eta = 1 }, Manning friction, walls. Checks that the bed field is the
-- ramp sampled bilinearly at the cell centres, that the lake stays at rest (1e-10 m/s
-- in double, 1e-5 in float: the issue's bounds) and that the volume does not change.
for _, precision in ipairs { "double", "float" } do
  local sim = flow.simulation {
    model = "lbm_swe",
    precision = precision,
    grid = { nx = 64, ny = 32, lx = 64, ly = 32 },
    fluid = { gravity = 9.81, nu = 0.1 },
    bed = flow.heightmap("data/ramp_heightmap.png", { 0.1, 0.5 }),
    friction = { manning = 0.02 },
    initial = { eta = 1.0 },
    boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
    time = { steps = 2000 },
  }
  local bed = sim:field("bed")
  for _, i in ipairs { 1, 10, 33, 64 } do
    local x = i - 0.5
    -- pixel c (0-based) has its centre at (c + 1/2) * 2 m; value 0.1 + 0.4 c / 31 (8-bit greys: round(255 c / 31))
    local fc = math.min(math.max(x / 2 - 0.5, 0), 31)
    local c0 = math.floor(fc)
    local c1 = math.min(c0 + 1, 31)
    local function z(c) return 0.1 + 0.4 * math.floor(255 * c / 31 + 0.5) / 255 end
    local want = (1 - (fc - c0)) * z(c0) + (fc - c0) * z(c1)
    assert(math.abs(bed:get(i, 5) - want) < 1e-9,
           string.format("bed at i = %d is %.12g, expected %.12g", i, bed:get(i, 5), want))
  end
  local v0 = sim:diagnostics().volume
  sim:run()
  local d = sim:diagnostics()
  local bound = precision == "double" and 1e-10 or 1e-5
  print(string.format("%s: largest speed after %d steps %.3g m/s, relative volume change %.3g", precision, sim.step,
                      d.max_speed, (d.volume - v0) / v0))
  assert(d.max_speed < bound, precision .. ": the lake moved: " .. d.max_speed .. " m/s")
  -- round-off: each step rounds the nine stored values of every cell (float: 6e-8
  -- relative), so the volume may drift by up to steps x 6e-8 = 1.2e-4; double 1e-13
  local vbound = precision == "double" and 1e-13 or 1e-4
  assert(math.abs(d.volume - v0) / v0 < vbound, precision .. ": the volume changed by " .. (d.volume - v0) / v0)
end
