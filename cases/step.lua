-- Flow over a backward-facing step, Re = 100: the second test problem of seed 002
-- (Menenguci, Valli, Catabriga & Veronese, "Um algoritmo CUDA em diferenças finitas para
-- a discretização das equações de Navier-Stokes", sec. 5.2), which follows the step
-- example of Griebel, Dornseifer & Neunhoeffer, Numerical Simulation in Fluid Dynamics
-- (SIAM 1998).
--
-- Choices (the paper leaves most of them open, see shared/seeds/002.md sec. 3.2):
--   * domain (0, 29) x (0, 1.5) and the step corner at (7.5, 0.75), as the seed gives:
--     the step is the block [0, 7.5] x [0, 0.75], so fluid enters a channel of height
--     h = 0.75 that widens to H = 1.5 at x = 7.5 (expansion ratio 2, step height S = 0.75).
--   * inflow at the left over the upper half, u = 1 (a plug, as in NaSt2D and the seed's
--     initial field; --set profile=parabolic gives a parabola of the same mean 1). The
--     inlet channel is 10 h long, more than the laminar entrance length of about
--     0.05 Re h, so the profile reaching the step is close to fully developed either way.
--   * outflow at x = 29 (28.7 step heights behind the step), no-slip top and bottom.
--   * dimensionless as in the seed: Re = 100 with velocity 1 and length 1, nu = 0.01.
--   * initial field u = 1 in the upper half, 0 below (the seed's; it satisfies continuity).
--   * square cells (the seed's 512 x 128 grid has cells 4.8 times longer than high):
--     ny = 24 gives 464 x 24, h = 1/16, 12 cells across the step.
-- In the usual reference scaling (Armaly et al., J. Fluid Mech. 127 (1983) 473, bulk
-- velocity and hydraulic diameter 2h of the inlet channel) this flow has
-- Re_D = 1 * 1.5 / 0.01 = 150. Armaly et al. measured a primary reattachment length
-- x1/S of about 3 at Re_D = 100 and about 5 at Re_D = 200 (expansion ratio 1.94, read
-- off their figure), so about 4 step heights (x1 about 3.0) is expected here.
--
--   flowlua cases/step.lua                       ny = 24, until steady or t = 60
--   flowlua cases/step.lua --set ny=48           finer (928 x 48)
--
-- Prints the reattachment point of the primary recirculation: where u in the first row
-- of cells above the bottom wall turns from negative back to positive behind the step.
local ny = param("ny", 24)                  -- cells across the outlet channel; nx follows
local t_end = param("t_end", 60.0)          -- upper bound on the simulated time
local steady = param("steady", 1e-3)        -- stop when the velocity changes by less than this (x U per time unit)
local profile = param("profile", "plug")    -- inflow: "plug" (u = 1) or "parabolic"
local Re = param("Re", 100.0)

local LX, LY = 29.0, 1.5
local xs, S = 7.5, 0.75                     -- step corner (xs, S)
local nx = math.floor(ny * LX / LY + 0.5)

local function inflow(y)
  if y <= S then return 0.0 end
  if profile == "parabolic" then
    local h = LY - S
    return 6 * (y - S) * (LY - y) / (h * h)    -- mean 1, maximum 1.5
  elseif profile == "plug" then
    return 1.0
  end
  error("profile must be 'plug' or 'parabolic' (got '" .. tostring(profile) .. "')")
end

local sim = flow.simulation {
  grid = { nx = nx, ny = ny, lx = LX, ly = LY },
  fluid = { Re = Re },                      -- reference velocity 1, length 1
  boundaries = {
    left = flow.inflow { u = function(y, t) return inflow(y) end },
    right = flow.outflow(),
    bottom = flow.wall(), top = flow.wall(),
  },
  obstacles = { flow.rect { x0 = 0, y0 = 0, x1 = xs, y1 = S } },
  initial = { u = function(x, y) return y > S and 1.0 or 0.0 end },
  time = { t_end = t_end, cfl = 0.5, steady = steady },
  kernels = { advection = "central" },
  pressure = { solver = "rbsor", omega = 1.8, tol = 1e-4, max_iter = 1000 },
}
print(string.format("backward-facing step: Re = %g (Re_D = %g), grid %d x %d, h = %.4g, step %d x %d cells, inflow %s",
                    Re, 1.5 * Re, nx, ny, sim.dx, math.floor(xs / sim.dx + 0.5), math.floor(S / sim.dy + 0.5), profile))

-- Reattachment: scan u along the first row of cell centres above the bottom wall from
-- the step on. A small corner eddy right at the foot of the step turns the sign there
-- too, so the primary bubble is the first stretch with u < 0 that follows; it ends where
-- u turns positive again (linear interpolation between cell centres).
local function recirculation(s)
  local row = s:field("u"):line { y = 0.5 * s.dy }
  local start, stop
  for k = 1, #row do
    local x, u = row[k].x, row[k].value
    if x > xs then
      if not start then
        if u < 0 then start = x end
      elseif u >= 0 then
        local x0, u0 = row[k - 1].x, row[k - 1].value
        stop = x0 + (x - x0) * (-u0) / (u - u0)
        break
      end
    end
  end
  return start, stop
end

sim:every_time(5.0, function(s)
  local d = s:diagnostics()
  local _, stop = recirculation(s)
  print(string.format("t = %5.1f  step %6d  dt %.2e  max speed %.3f  steady change %.2e  reattachment x = %s",
                      s.time, s.step, s.dt, d.max_speed, d.steady_change or -1,
                      stop and string.format("%.3f", stop) or "-"))
end)

-- Pictures about 2000 pixels wide. In stream_bubble.png the colour range is centred on
-- the separation streamline psi = 0: the recirculation (psi < 0) is blue, the through-flow red.
local scale = math.max(1, math.min(64, math.floor(2000 / nx)))
sim:on_finish(function(s)
  flow.write_png(s:field("speed"), "speed.png", { colormap = "viridis", scale = scale })
  flow.write_png(s:field("vorticity"), "vorticity.png", { colormap = "coolwarm", range = { -5, 5 }, scale = scale })
  local psi = s:field("stream")
  flow.write_png(psi, "stream.png", { colormap = "gray", scale = scale })
  local m = math.max(-psi:min(), 1e-6)
  flow.write_png(psi, "stream_bubble.png", { colormap = "coolwarm", range = { -m, m }, scale = scale })
end)

local report = sim:run()
print(string.format("stopped at t = %.2f after %d steps (%s), %.1f s wall",
                    sim.time, sim.step, report.reason or "done", report.wall))

local start, stop = recirculation(sim)
if not stop then
  print("no closed recirculation found on the bottom wall behind the step")
else
  local xr = stop - xs
  print(string.format("primary recirculation on the bottom wall: x = %.3f .. %.3f", start, stop))
  print(string.format("reattachment length x_r = %.3f = %.2f step heights (Armaly et al. 1983: about 4 at Re_D = 150)",
                      xr, xr / S))
end
-- Mass balance: flux through a cross-section behind the step against the inflow
-- (0.75 for either profile); the stream function is 0 on the bottom wall and negative
-- inside the bubble, so its minimum measures the bubble's strength.
local flux = 0
for _, pt in ipairs(sim:field("u"):line { x = xs + 10 }) do flux = flux + pt.value * sim.dy end
print(string.format("flux at x = %.1f: %.4f (inflow %.4f); stream function minimum %.5f (bubble strength)",
                    xs + 10, flux, LY - S, sim:field("stream"):min()))
print("pictures in " .. flow.output_dir())
