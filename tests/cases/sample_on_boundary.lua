-- f:sample on the domain boundary reads the boundary value (docs/case-language.md,
-- "Fields"): the lid's velocity on the lid, zero on a wall, the inflow's profile on
-- an inflow side; inside, it still interpolates between cell centres, and in the half
-- cell next to a side between the outermost centre and the side's value.
local function close(a, b, tol, what)
  if math.abs(a - b) > tol then error(string.format("%s: got %.17g, expected %.17g", what, a, b), 2) end
end

local function cavity(model)
  local sim = flow.simulation {
    model = model,
    grid = { nx = 16, ny = 16, lx = 1, ly = 1 },
    fluid = { nu = 1 / 100 },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
  }
  sim:step(20)
  return sim
end

for _, model in ipairs { "projection", "psi_omega" } do
  local sim = cavity(model)
  local u, v, speed = sim:field("u"), sim:field("v"), sim:field("speed")
  local n, h = sim.nx, sim.dx
  assert(u:sample(0.5, 1.0) == 1.0, model .. ": u on the lid is " .. u:sample(0.5, 1.0) .. ", not 1")
  assert(u:sample(0.3, 1.0) == 1.0, model .. ": u on the lid at x = 0.3")
  assert(speed:sample(0.5, 1.0) == 1.0, model .. ": speed on the lid")
  for _, p in ipairs { { 0, 0.5 }, { 1, 0.5 }, { 0.5, 0 }, { 0.25, 0 } } do
    assert(u:sample(p[1], p[2]) == 0, model .. ": u on a wall at (" .. p[1] .. ", " .. p[2] .. ")")
    assert(v:sample(p[1], p[2]) == 0, model .. ": v on a wall at (" .. p[1] .. ", " .. p[2] .. ")")
  end
  assert(v:sample(0.5, 1.0) == 0, model .. ": v on the lid")
  -- A corner where the lid meets a wall: the mean of the two sides.
  close(u:sample(0, 1), 0.5, 1e-15, model .. ": u in the lid's corner")
  -- Cell centres read the cell; halfway from the top centre to the lid, the mean.
  local i, j = 5, 7
  close(u:sample((i - 0.5) * h, (j - 0.5) * h), u:get(i, j), 1e-15, model .. ": u at a cell centre")
  close(u:sample((i - 0.5) * h, 1 - h / 4), 0.5 * (u:get(i, n) + 1), 1e-15, model .. ": u between the top centre and the lid")
  -- Outside the domain: clamped onto the boundary.
  assert(u:sample(0.5, 1.5) == 1.0, model .. ": u above the lid clamps onto it")
  -- The stream function is constant (0) along closed walls.
  close(sim:field("stream"):sample(0, 0.4), 0, 1e-12, model .. ": stream on the left wall")
  close(sim:field("stream"):sample(0.4, 0), 0, 1e-12, model .. ": stream on the bottom wall")
  print(string.format("%-10s u(0.5, 1) = %.17g, u(0, 0.5) = %g, u(0, 1) = %g", model, u:sample(0.5, 1), u:sample(0, 0.5),
                      u:sample(0, 1)))
end

-- A channel with a parabolic inflow: u on the inflow side is the profile there.
local H = 1
local function profile(y) return 4 * y * (H - y) / (H * H) end
local sim = flow.simulation {
  grid = { nx = 16, ny = 8, lx = 2, ly = H },
  fluid = { nu = 0.05 },
  boundaries = { left = flow.inflow { u = function(y) return profile(y) end }, right = flow.outflow(),
                 bottom = flow.wall(), top = flow.wall() },
}
sim:step(5)
local u = sim:field("u")
for j = 1, sim.ny do
  local y = (j - 0.5) * sim.dy
  close(u:sample(0, y), profile(y), 1e-15, "u on the inflow side at y = " .. y)
end
-- The outflow side has no given value: it reads the outermost centre (zero gradient).
close(u:sample(2, 0.5 * sim.dy), u:get(sim.nx, 1), 1e-15, "u on the outflow side")
print("inflow side matches the profile at every boundary cell")
