-- Differentially heated cavity at Ra = 1e4, Pr = 0.71 (psi_omega model, central
-- convection, Thom wall vorticity) on 64 x 64 cells against de Vahl Davis (1983): mean
-- Nusselt number on the hot wall within 1%, mid-plane velocity maxima within 2%
-- (scripts/reference/devahldavis1983.csv).
local Ra, n = 1e4, 64
local sim = require("flowlua.heated_cavity").steady(Ra, 0.71, n, 1.0)
local dev, got, ref = require("flowlua.devahldavis").compare(sim, Ra)
print(string.format("Ra %g, %dx%d, t = %.3f: Nu %.4f (ref %.3f, %.2f%%), u_max %.3f (ref %.3f, %.2f%%), v_max %.3f (ref %.3f, %.2f%%)",
                    Ra, n, n, sim.time, got.nusselt, ref.nusselt, 100 * dev.nusselt, got.u_max, ref.u_max,
                    100 * dev.u_max, got.v_max, ref.v_max, 100 * dev.v_max))
assert(dev.nusselt < 0.01, "Nusselt number off by " .. 100 * dev.nusselt .. "%")
assert(dev.u_max < 0.02, "u_max off by " .. 100 * dev.u_max .. "%")
assert(dev.v_max < 0.02, "v_max off by " .. 100 * dev.v_max .. "%")
