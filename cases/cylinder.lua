-- Channel flow past a circular cylinder: the DFG benchmark "2D-2" of Schäfer & Turek,
-- "Benchmark computations of laminar flow around a cylinder", in Flow Simulation with
-- High-Performance Computers II, Notes on Numerical Fluid Mechanics 52 (1996) 547-566.
--
--   channel 2.2 x 0.41, cylinder of diameter D = 0.1 centred at (0.2, 0.2) (the
--   channel centre is 0.205, so the set-up is slightly asymmetric on purpose),
--   parabolic inflow u(y) = 4 Um y (0.41 - y) / 0.41^2 with Um = 1.5 (mean U = 1),
--   no-slip walls at y = 0 and 0.41, outflow at x = 2.2, nu = 1e-3: Re = U D / nu = 100.
--
-- The flow sheds a von Kármán vortex street. Every few steps the drag and lift
-- coefficients cd = 2 Fx / (rho U^2 D), cl = 2 Fy / (rho U^2 D) are recorded with
-- sim:forces; from the last third of the run the Strouhal number St = f D / U is taken
-- from the lift signal (upward crossings of its mean, see scripts/flowlua/signal.lua)
-- and printed with the benchmark ranges (cd_max 3.22-3.24, cl_max 0.99-1.01,
-- St 0.295-0.305). Start-up: the inflow profile everywhere plus a small upward puff
-- behind the cylinder; the lift amplitude settles by t = 3..4, so the default t_end = 6
-- leaves 6 periods for the analysis.
--
--   flowlua cases/cylinder.lua                      ny = 41 (D = 10 cells), t = 0..6
--   flowlua cases/cylinder.lua --set ny=82          D = 20 cells (about 4x the time)
--
-- sim:forces takes the force from a momentum balance over a box around the cylinder.
-- The cylinder is an immersed boundary by default (kernels.bodies; at ny = 82 and
-- t_end = 8: St 0.3005, cd max 3.263, cl max 0.952; on 164 cells all three within 2% of
-- the bands); --set bodies=staircase makes it a staircase of cells (St 0.3013, cd max
-- 3.221, cl max 0.924 at ny = 82). Measured numbers: docs/validation.md ("Cylinder in a
-- channel"); the steady 2D-1 case is cases/cylinder_steady.lua.
-- Central advection at the cell Reynolds number 1.5 h / nu = 15 (ny = 41; 7.5 at ny = 82)
-- leaves small wiggles upstream of the cylinder in the vorticity picture.
local signal = require("flowlua.signal")

local ny = param("ny", 41)              -- cells across the channel; nx follows (square cells)
local t_end = param("t_end", 6.0)       -- the lift amplitude settles by t = 3..4 (see the print)
local cfl = param("cfl", 0.5)           -- safety factor on the CFL / cell-Peclet time step
local sample_every = param("sample_every", 10)  -- record cd, cl every this many steps
local perturb = param("perturb", 0.1)   -- strength of the brief initial cross-flow (x U)
local frames = param("frames", 2.0)     -- vorticity picture every this much time (0: none)
local bodies = param("bodies", nil)  -- "staircase", or "immersed" (kernels.bodies; left out: the model's default, immersed)
local solver = param("solver", "rbsor")   -- pressure solver: "rbsor" (tol 1e-4, the module's) or "multigrid" (tol 1e-7)

local cyl = require("flowlua.cylinder")
local U, D, nu = cyl.U, cyl.D, cyl.nu
local nx = math.floor(ny * cyl.L / cyl.H + 0.5)
local pressure = nil  -- the module's red-black SOR
if solver == "multigrid" then
  pressure = { solver = "multigrid", tol = 1e-7 }
elseif solver ~= "rbsor" then
  error("cylinder.lua: --set solver= takes rbsor or multigrid, not " .. tostring(solver))
end
local sim = cyl.simulation { ny = ny, t_end = t_end, cfl = cfl, perturb = perturb, bodies = bodies,
                             pressure = pressure }

print(string.format("cylinder (Schäfer & Turek 2D-2): Re = %g, grid %d x %d, h = %.4g (D = %.1f cells), t_end = %g",
                    U * D / nu, nx, ny, sim.dx, D / sim.dx, t_end))

local ts, cds, cls = {}, {}, {}
local csv = flow.csv("forces.csv")
sim:every(sample_every, function(s)
  local f = s:forces(1, { U = U, L = D })
  ts[#ts + 1], cds[#cds + 1], cls[#cls + 1] = s.time, f.cd, f.cl
  csv:row { { "t", s.time }, { "cd", f.cd }, { "cl", f.cl } }
end)

-- Progress once per time unit: the range of cd and cl since the last print (a print of
-- the instantaneous cl would alias: the shedding period is about 1/3).
local last = 0
sim:every_time(1.0, function(s)
  local d = s:diagnostics()
  local cdw, clw = {}, {}
  for k = last + 1, #ts do cdw[#cdw + 1], clw[#clw + 1] = cds[k], cls[k] end
  last = #ts
  if #clw == 0 then return end
  print(string.format("t = %5.2f  step %6d  dt %.2e  cd %.4f .. %.4f  cl %+.4f .. %+.4f  max speed %.3f  SOR iterations %d",
                      s.time, s.step, s.dt, signal.min(cdw), signal.max(cdw), signal.min(clw), signal.max(clw),
                      d.max_speed, d.pressure_iterations))
end)

local vort = { colormap = "coolwarm", range = { -20, 20 } }
if frames > 0 then
  sim:every_time(frames, flow.png { field = "vorticity", file = "vorticity_%06d.png",
                                    colormap = "coolwarm", range = { -20, 20 } })
end
sim:on_finish(function(s)
  flow.write_png(s:field("vorticity"), "vorticity.png", vort)
  flow.write_png(s:field("speed"), "speed.png", { colormap = "viridis", range = { 0, 2.4 } })
end)

local report = sim:run()
print(string.format("stopped at t = %.3f after %d steps, %.1f s wall", sim.time, sim.step, report.wall))

-- Shedding analysis over the last third of the run.
local t0 = t_end * 2 / 3
local r = signal.shedding(ts, cds, cls, t0, D, U)
print(string.format("analysis window t = %.2f .. %.2f: %d samples, %d lift zero crossings, %d periods",
                    t0, sim.time, r.samples, r.crossings, r.cycles))
if not r.St then
  print("no shedding detected in the window (the lift does not oscillate): run longer (--set t_end=...)")
else
  print(string.format("period regularity: (longest - shortest period) / mean period = %.3f", r.spread))
  print("                 value      Schäfer & Turek (1996)")
  print(string.format("St             %7.4f     0.2950 .. 0.3050   (from lift maxima: %.4f)", r.St, r.St_maxima or 0 / 0))
  print(string.format("cd max         %7.4f     3.2200 .. 3.2400", r.cd_max))
  print(string.format("cd mean        %7.4f     (not tabulated)         ", r.cd_mean))
  print(string.format("cl max         %7.4f     0.9900 .. 1.0100", r.cl_max))
  print(string.format("cl amplitude   %7.4f     (cl min about -1.0)", r.cl_amplitude))
  print(string.format("cl mean        %+7.4f", r.cl_mean))
end
print("time series in " .. csv.path .. ", pictures in " .. flow.output_dir())
