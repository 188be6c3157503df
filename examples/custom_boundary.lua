-- A user-defined boundary condition: a square box whose top and bottom walls slide
-- with a speed that varies along the wall and in time. One Lua function serves both
-- walls (it gets the side's name, the coordinate along the side and the time) and
-- returns the wall velocity (u, v) there:
--   top:    u = U sin^2(pi x) cos(2 pi t / T)       (smooth at the corners, no jump)
--   bottom: u = -U/2 sin^2(pi x) cos(2 pi t / T)    (half as fast, the other way)
-- so the driven vortex spins up, stops and reverses every half period.
--
--   flowlua examples/custom_boundary.lua --set n=64 --set T=8
local n = param("n", 48)
local T = param("T", 4.0)            -- period of the wall motion
local U = param("U", 1.0)            -- peak speed of the top wall
local Re = param("Re", 200.0)        -- U * side / nu

local function walls(side, x, t)
  local shape = math.sin(math.pi * x) ^ 2 * math.cos(2 * math.pi * t / T)
  if side == "top" then return U * shape, 0.0 end
  return -0.5 * U * shape, 0.0      -- bottom
end

local sim = flow.simulation {
  grid = { nx = n, ny = n, lx = 1.0, ly = 1.0 },
  fluid = { Re = Re, reference_velocity = U },
  boundaries = {
    top = flow.custom { walls, every = 1 },    -- re-evaluated before every step
    bottom = flow.custom(walls),               -- the same (every = 1 is the default)
    left = flow.wall(), right = flow.wall(),
  },
  time = { t_end = 2 * T, cfl = 0.5 },
  pressure = { solver = "rbsor", omega = 1.8, tol = 1e-5 },
}

local record = {}   -- top wall speed and u just below it, for tests/cases/examples_run.lua
sim:every_time(T / 8, function(s)
  local d = s:diagnostics()
  local top = walls("top", 0.5, s.time)
  local u = s:field("u")
  record[#record + 1] = { t = s.time, wall = top, u_near = u:sample(0.5, 0.95), u_below = u:sample(0.5, 0.75) }
  -- the wall drags a Stokes layer of thickness about sqrt(2 nu T / (2 pi)); the fluid
  -- below it carries the return flow, so u(0.5, 0.75) has the opposite sign
  print(string.format("t = %5.2f  top wall at x = 0.5: %+.3f  u(0.5, 0.95) %+.4f  u(0.5, 0.75) %+.4f  kinetic energy %.5f",
                      s.time, top, u:sample(0.5, 0.95), u:sample(0.5, 0.75), d.kinetic_energy))
end)
sim:every_time(T / 4, flow.png { field = "vorticity", file = "vorticity_%05d.png",
                                 colormap = "coolwarm", range = { -10, 10 } })
sim:run()
print("pictures in " .. flow.output_dir())
return record
