-- sim:forces by the momentum balance (projection model): a cylinder in a channel at
-- Re = 20 on a coarse grid, centred (no lift by symmetry), then turning (a Magnus lift
-- downwards for a counter-clockwise turn in a flow to +x, and a torque against the
-- turn). Checks the parts add up, the moment about another point is the moment plus
-- r x F, and the staircase and immersed treatments give drags within the staircase's
-- first-order error of each other.
local H, D, nu = 0.4, 0.1, 1e-3
local Um = 0.3
local function run(omega, bodies)
  local sim = flow.simulation {
    grid = { nx = 88, ny = 32, lx = 1.1, ly = H },
    fluid = { nu = nu },
    boundaries = {
      left = flow.inflow { u = function(y) return 4 * Um * y * (H - y) / H ^ 2 end },
      right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
    },
    obstacles = { flow.circle { x = 0.3, y = H / 2, r = D / 2, omega = omega } },
    initial = { u = function(x, y) return 4 * Um * y * (H - y) / H ^ 2 end },
    time = { t_end = 3, cfl = 0.8 },
    kernels = { bodies = bodies },
    pressure = { solver = "multigrid", tol = 1e-8 },
  }
  sim:run()
  return sim
end

local U = 2 * Um / 3
local sim = run(0, "immersed")
local f = sim:forces(1, { U = U, L = D })
print(string.format("immersed, at rest: cd %.4f (pressure %.4f, viscous %.4f), cl %.2e, cm %.2e, %s",
                    f.cd, f.cd_pressure, f.cd_viscous, f.cl, f.cm, f.method))
assert(f.method == "control volume", "no control volume around the cylinder: " .. f.method)
assert(math.abs(f.cd_pressure + f.cd_viscous - f.cd) < 1e-12, "the parts do not add up to the drag")
assert(f.cd_pressure > 0 and f.cd_viscous > 0, "both parts of the drag must push downstream")
assert(math.abs(f.cl) < 1e-6 * f.cd and math.abs(f.cm) < 1e-6 * f.cd, "a symmetric flow has lift or moment")
assert(f.about[1] == 0.3 and f.about[2] == H / 2, "the moment is not about the circle's centre")
local g = sim:forces(1, { about = { 0.0, 0.0 } })
local expect = f.moment + (0.3 - 0.0) * f.fy - (H / 2 - 0.0) * f.fx
assert(math.abs(g.moment - expect) < 1e-12 * math.abs(f.fx), "the moment about (0, 0) is not M + r x F")
assert(g.cd == nil, "cd without U and L")

local st = run(0, "staircase"):forces(1, { U = U, L = D })
print(string.format("staircase, at rest: cd %.4f (%s)", st.cd, st.method))
assert(math.abs(st.cd / f.cd - 1) < 0.1, "staircase and immersed drags differ by more than 10%")

local omega = 10  -- surface speed 0.5 = 2.5 U
local t = run(omega, "immersed"):forces(1, { U = U, L = D })
print(string.format("immersed, turning at omega = %g: cd %.4f, cl %.4f, cm %.4f", omega, t.cd, t.cl, t.cm))
assert(t.cl < -0.5, "a counter-clockwise turn in a flow to +x must lift downwards (Magnus)")
assert(t.cm < 0, "the torque must oppose the turn")
