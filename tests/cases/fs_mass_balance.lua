-- Mass balance of the fractional_step model with a pulsating inflow past obstacles:
-- the volume flux out through the outflow side (outflow_flux) equals the flux in
-- (inflow_flux, the inflow function of (s, t) re-evaluated every step) at every
-- sample, within the bound the projection gives: out - in is the sum of div u over
-- the cells times their volume, so |out - in| <= (domain volume) max |div u|. 2D
-- channel past a rectangle, 3D duct past a sphere; the inflow varies by +-50% and
-- +-30%, so a lag or a leak would show.
local function check(sim, volume, label)
  local lo, hi, worst = math.huge, -math.huge, 0
  sim:every(10, function()
    local d = sim:diagnostics()
    local gap = math.abs(d.inflow_flux - d.outflow_flux)
    assert(gap <= volume * d.max_divergence + 1e-12,
           string.format("%s: at t = %.3f inflow %.12f but outflow %.12f (max div %.1e)", label, d.time,
                         d.inflow_flux, d.outflow_flux, d.max_divergence))
    worst = math.max(worst, gap)
    lo, hi = math.min(lo, d.inflow_flux), math.max(hi, d.inflow_flux)
  end)
  sim:run()
  print(string.format("%s: inflow between %.4f and %.4f, largest |outflow - inflow| %.1e", label, lo, hi, worst))
  return lo, hi
end

local H = 1.0
local two_d = flow.simulation {
  model = "fractional_step",
  grid = { nx = 64, ny = 16, lx = 4, ly = H },
  fluid = { nu = 0.02 },
  boundaries = {
    left = flow.inflow { u = function(y, t) return 6 * y * (H - y) / H ^ 2 * (1 + 0.5 * math.sin(2 * math.pi * t)) end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  obstacles = { flow.rect { x0 = 1.0, y0 = 0.3, x1 = 1.3, y1 = 0.7 } },
  time = { t_end = 1 },
}
local lo, hi = check(two_d, 4 * H, "2D")
assert(hi - lo > 0.8, "the inflow did not pulsate")

local three_d = flow.simulation {
  model = "fractional_step",
  grid = { nx = 16, ny = 8, nz = 8, lx = 2, ly = 1, lz = 1 },
  fluid = { nu = 0.05 },
  boundaries = {
    left = flow.inflow { u = function(y, z, t) return 36 * y * (1 - y) * z * (1 - z) * (1 + 0.3 * math.sin(4 * t)) end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(), back = flow.wall(), front = flow.wall(),
  },
  obstacles = { flow.sphere { x = 0.6, y = 0.5, z = 0.5, r = 0.25 } },
  time = { steps = 120 },
}
lo, hi = check(three_d, 2, "3D")
assert(hi - lo > 0.2, "the inflow did not pulsate")
