-- The backward-facing step of seed 002 (cases/step.lua: domain 29 x 1.5, step block
-- [0, 7.5] x [0, 0.75], plug inflow u = 1 over the upper half, Re = 100 with nu = 0.01,
-- i.e. Re_D = 150 on the inlet's hydraulic diameter) on a coarse grid (232 x 12, six
-- cells across the step) must form one recirculation bubble behind the step whose
-- reattachment length lies in a band around the expected value:
--   the case gives x_r / S = 3.79 (ny = 12), 3.92 (ny = 24), 3.96 (ny = 48), 3.97 (ny = 96)
--   with S = 0.75 the step height; Armaly et al. (J. Fluid Mech. 127, 1983) measured
--   x_r / S of about 3 at Re_D = 100 and about 5 at Re_D = 200, so about 4 here.
--   Band: 3.4 .. 4.5 step heights (about 12% around 3.95).
-- The bubble length is settled by t = 15 (cases/step.lua prints it every 5 time units),
-- so the test stops at t = 20. It also checks that the flow leaves the top wall attached
-- (no second bubble at this Reynolds number) and the mass balance.
-- The pressure is solved by multigrid to the case's relative residual of 1e-4, which it
-- reaches in 1 to 7 V-cycles a step; the case's red-black SOR (omega 1.8) stops at its
-- max_iter of 1000 sweeps every step on this 232-cell-long grid. Both give 3.79 step
-- heights and the flux 0.750000; to t = 2 multigrid took 0.22 s of CPU and SOR 5.9 s
-- (the whole test: 2.0 s; docs/ci-time.md).
local LX, LY, xs, S = 29.0, 1.5, 7.5, 0.75
local ny = 12
local sim = flow.simulation {
  grid = { nx = math.floor(ny * LX / LY + 0.5), ny = ny, lx = LX, ly = LY },
  fluid = { Re = 100 },
  boundaries = {
    left = flow.inflow { u = function(y) return y > S and 1.0 or 0.0 end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  obstacles = { flow.rect { x0 = 0, y0 = 0, x1 = xs, y1 = S } },
  initial = { u = function(x, y) return y > S and 1.0 or 0.0 end },
  time = { t_end = 20, cfl = 0.5 },
  pressure = { solver = "multigrid", tol = 1e-4 },
}
sim:run()

local u = sim:field("u")
-- Bottom row: the first stretch behind the step with u < 0, up to where u turns positive.
local bottom = u:line { y = 0.5 * sim.dy }
local start, stop, negatives = nil, nil, 0
for k = 2, #bottom do
  local x, v = bottom[k].x, bottom[k].value
  if x > xs then
    if v < 0 then negatives = negatives + 1 end
    if not start then
      if v < 0 then start = x end
    elseif not stop and v >= 0 then
      local x0, v0 = bottom[k - 1].x, bottom[k - 1].value
      stop = x0 + (x - x0) * (-v0) / (v - v0)
    end
  end
end
assert(start, "no reverse flow on the bottom wall behind the step: no recirculation")
assert(stop, "the reverse flow behind the step reaches the outlet: the bubble never closes")
local xr = (stop - xs) / S
print(string.format("t = %.1f: recirculation x = %.3f .. %.3f, reattachment length %.3f = %.2f step heights",
                    sim.time, start, stop, stop - xs, xr))
assert(start < xs + 2 * sim.dx, string.format("the bubble starts at x = %.3f, not at the step (x = %.1f)", start, xs))
assert(xr > 3.4 and xr < 4.5, string.format("reattachment length %.2f step heights outside 3.4 .. 4.5", xr))

-- Only one bubble on the bottom wall: every reverse-flow cell lies inside it.
local inside = 0
for k = 1, #bottom do
  if bottom[k].x > start - 1e-9 and bottom[k].x < stop and bottom[k].value < 0 then inside = inside + 1 end
end
assert(inside == negatives, string.format("%d reverse-flow cells on the bottom wall outside the primary bubble",
                                          negatives - inside))

-- Top wall attached: u > 0 in the row of cells below it everywhere.
for _, pt in ipairs(u:line { y = LY - 0.5 * sim.dy }) do
  assert(pt.value > 0, string.format("reverse flow under the top wall at x = %.3f (u = %.4f)", pt.x, pt.value))
end

-- Mass balance behind the step: the flux equals the inflow 0.75.
local flux = 0
for _, pt in ipairs(u:line { x = xs + 5 }) do flux = flux + pt.value * sim.dy end
print(string.format("flux at x = %.1f: %.6f (inflow 0.75)", xs + 5, flux))
assert(math.abs(flux - 0.75) < 1e-3, "flux behind the step " .. flux .. " differs from the inflow 0.75")
