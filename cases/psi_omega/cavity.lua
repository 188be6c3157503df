-- Lid-driven cavity in the stream function-vorticity model (seed 000, sec. 5.1), compared
-- with Ghia, Ghia & Shin (1982). Writes the stream function and the vorticity.
--   flowlua cases/psi_omega/cavity.lua --set Re=1000 --set n=128
--   flowlua cases/psi_omega/cavity.lua --set scheme=adi --set dt=0.02   (Peaceman-Rachford ADI)
--   --set steps=1000 stops after 1000 steps (the seed's timing runs)
--   --set stream=adi|cg: the stream-function solver (pressure.solver; default cg, with
--   scheme=adi line relaxation 'adi')
local Re = param("Re", 100)
local n = param("n", 64)
local sim = require("flowlua.cavity").psi_omega(Re, n, param("t_end", Re >= 1000 and 50 or 30),
                                                { advection = param("advection", "central"),
                                                  wall_vorticity = param("wall_vorticity", "thom") },
                                                { scheme = param("scheme", "explicit"), dt = param("dt", nil),
                                                  steps = param("steps", nil) },
                                                param("stream", nil) and { solver = param("stream", nil) } or nil)
local worst, per = require("flowlua.ghia").max_deviation(sim, Re)
local d = sim:diagnostics()
print(string.format("Re %g, %dx%d cells, t = %.2f: psi_min %.5f, largest deviation from Ghia u %.4f, v %.4f",
                    Re, n, n, sim.time, d.stream_min, per.u, per.v))
flow.write_png(sim:field("stream"), "stream.png", { colormap = "viridis" })
flow.write_png(sim:field("vorticity"), "vorticity.png", { colormap = "coolwarm", range = { -5, 5 } })
