-- The stream function of a free body, checked against the other flow model. A square
-- (D = 1) one D below the centreline of Breuer's channel (height 8 D, a 20 D channel at
-- 8 cells per D, Re = 20, steady): the flow divides unequally around it, and how it
-- divides is what psi_B says in the psi_omega model. There psi_B comes from the
-- single-valued pressure around the body (Kelvin's theorem on a box around it,
-- engine/models/psi_omega/bodies.hpp); the projection model has no such constant (its
-- pressure is single-valued by construction). So the fraction of the flux that passes
-- below the body,
--   psi_omega:  (psi_B - psi_bottom wall) / (psi_top - psi_bottom)
--   projection: int_0^y0 u(x_c, y) dy / int_0^H u(x_c, y) dy   (x_c the square's centre)
-- must agree. A symmetric body cannot test this (psi_B = the walls' mean by symmetry,
-- whatever the rule); psi_B held at the mean here would put half the flux below the
-- body instead of about a third. 20 s on one CPU thread.
local sq = require("flowlua.square_cylinder")
local n, length, Re, offset = 8, 20, 20, -1

local function run(model)
  local sim = sq.simulation { model = model, n = n, Re = Re, length = length, offset = offset, t_end = 200,
                              steady = 1e-4, scheme = model == "psi_omega" and "adi" or nil }
  local report = sim:run()
  assert(report.reason == "reached a steady state", model .. " did not reach a steady state: " .. report.reason)
  return sim
end

local x0, x1, y0 = sq.square(length, offset)
local xc = 0.5 * (x0 + x1)

local po = run("psi_omega")
local d = po:diagnostics()
local below_po = (d.stream_body_1 - d.stream_min) / (d.stream_max - d.stream_min)

local pr = run("projection")
local u = pr:field("u")
local function flux(a, b)  -- int_a^b u(xc, y) dy, trapezoidal on 400 intervals
  local m, s = 400, 0
  for k = 0, m do
    local y = a + (b - a) * k / m
    s = s + ((k == 0 or k == m) and 0.5 or 1) * u:sample(xc, y)
  end
  return s * (b - a) / m
end
local below_pr = flux(0, y0) / flux(0, sq.H)

local fp, fq = po:forces(1, { U = 1, L = sq.D }), pr:forces(1, { U = 1, L = sq.D })
print(string.format("flux below the body: psi_omega %.4f, projection %.4f of the total (%.2f%% apart); " ..
                    "cl %.4f and %.4f, cd %.4f and %.4f", below_po, below_pr,
                    100 * math.abs(below_po - below_pr) / below_pr, fp.cl, fq.cl, fp.cd, fq.cd))
assert(below_po > 0.2 and below_po < 0.45, "psi_omega: flux fraction below the body " .. below_po)
-- Measured 0.3194 against 0.3198 (2026-11-26): the bound is about ten times that.
assert(math.abs(below_po - below_pr) < 0.005, string.format("flux below the body: psi_omega %.4f, projection %.4f",
                                                           below_po, below_pr))
-- The lift (away from the nearer wall) comes from the same asymmetry: measured 0.0188
-- against 0.0230 (a small difference of large pressures at this grid: 18% apart; the
-- drag 2.3170 against 2.3295).
assert(fp.cl > 0 and fq.cl > 0 and math.abs(fp.cl - fq.cl) < 0.3 * fq.cl,
       string.format("lift: psi_omega %.4f, projection %.4f", fp.cl, fq.cl))
assert(math.abs(fp.cd - fq.cd) < 0.02 * fq.cd, string.format("drag: psi_omega %.4f, projection %.4f", fp.cd, fq.cd))
