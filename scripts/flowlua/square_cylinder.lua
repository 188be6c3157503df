-- The confined square cylinder of Breuer, Bernsdorf, Zeiser & Durst, "Accurate
-- computations of the laminar flow past a square cylinder based on two different
-- methods: lattice-Boltzmann and finite-volume", Int. J. Heat Fluid Flow 21 (2000)
-- 186-196 (seed 001's second case), for both flow models, so that they can be compared
-- on the same grid:
--
--   a square of side D = 1 centred in a channel of height H = 8 D (blockage D/H = 1/8),
--   length L = 50 D, the square's centre L/4 downstream of the inflow (12.5 D); a
--   parabolic inflow u = 4 U_max y (H - y) / H^2, no-slip walls, an outflow at x = L;
--   Re = U_max D / nu, St = f D / U_max, cd = Fx / (1/2 U_max^2 D).
--
--   local sq = require("flowlua.square_cylinder")
--   local sim = sq.simulation { model = "psi_omega", n = 8, Re = 20, length = 50 }
--
-- Options: model ("psi_omega" or "projection"), n (cells per D, even), Re, length
-- (channel length in D, default 50; the square stays at length / 4), Um (default 1),
-- scheme (time.scheme of psi_omega: "explicit" or "adi"), t_end, steady, cfl, perturb
-- (a brief asymmetric inflow, x U_max, that starts the shedding: u (1 + perturb sin(pi
-- t) (2 y / H - 1)) for t < 1, which keeps the flux), pressure (a pressure table).
--
-- sq.recirculation(sim) measures the recirculation length behind the square, and
-- sq.breuer holds the reference figures (see their comment).
local M = { D = 1, H = 8 }

-- Breuer et al. (2000): the recirculation length L_r, measured from the rear face of
-- the square to the end of the recirculation on the centreline, grows linearly for
-- 5 < Re < 60 (their fit L_r / D = -0.065 + 0.0554 Re); shedding sets in near Re = 60;
-- at Re = 100, St = 0.139 (their St(Re) figure). These are the figures as this module's
-- author recalls them: the paper was not at hand (the search tool holds only citations
-- of it); check the fit and St(100) against the paper before quoting them.
M.breuer = {
  recirculation = function(Re) return -0.065 + 0.0554 * Re end,
  St100 = 0.139,
  Re_crit = 60,
}

function M.inflow(y, Um) return 4 * Um * y * (M.H - y) / (M.H * M.H) end

-- Where the square is in a channel of `length` D: its faces x0, x1, y0, y1.
function M.square(length)
  local xc, yc = length / 4, M.H / 2
  return xc - M.D / 2, xc + M.D / 2, yc - M.D / 2, yc + M.D / 2
end

function M.simulation(o)
  local n = o.n or 8
  assert(n % 2 == 0, "square_cylinder: n (cells per D) must be even, so that the square's faces lie on grid lines")
  local length = o.length or 50
  local Um = o.Um or 1
  local Re = o.Re or 20
  local perturb = o.perturb or 0
  local x0, x1, y0, y1 = M.square(length)
  local H = M.H
  local function u_in(y, t)
    local u = M.inflow(y, Um)
    if perturb ~= 0 and t < 1 then u = u * (1 + perturb * math.sin(math.pi * t) * (2 * y / H - 1)) end
    return u
  end
  local case = {
    model = o.model or "psi_omega",
    grid = { nx = math.floor(length * n + 0.5), ny = 8 * n, lx = length * M.D, ly = H },
    fluid = { nu = Um * M.D / Re },
    boundaries = {
      left = flow.inflow { u = u_in },
      right = flow.outflow(),
      bottom = flow.wall(), top = flow.wall(),
    },
    obstacles = { flow.rect { x0 = x0, x1 = x1, y0 = y0, y1 = y1 } },
    time = { t_end = o.t_end, cfl = o.cfl, steady = o.steady, steady_interval = o.steady_interval },
    pressure = o.pressure,
  }
  if case.model == "psi_omega" then
    case.time.scheme = o.scheme
  else
    case.kernels = { advection = "central" }
    case.pressure = o.pressure or { solver = "multigrid", tol = 1e-6 }
  end
  return flow.simulation(case)
end

-- The recirculation length behind the square: from the rear face along the centreline
-- y = H / 2 to where u turns positive (linear between samples h / 4 apart); L_r / D as
-- Breuer et al. measure it (from the rear face), and from the square's centre (L_r / D
-- + 1/2, the definition seed 001 uses). nil when u is not negative behind the square.
function M.recirculation(sim, length)
  local _, x1 = M.square(length or 50)
  local u = sim:field("u")
  local h = sim.dx / 4
  local y = M.H / 2
  local prev_x, prev_u = x1 + h, u:sample(x1 + h, y)
  if prev_u >= 0 then return nil end
  local x = x1 + 2 * h
  while x < (length or 50) * M.D do
    local ux = u:sample(x, y)
    if ux >= 0 then
      local xr = prev_x + (x - prev_x) * (-prev_u) / (ux - prev_u)
      return (xr - x1) / M.D, (xr - x1) / M.D + 0.5
    end
    prev_x, prev_u = x, ux
    x = x + h
  end
  return nil
end

-- The driver of cases/psi_omega/square_cylinder.lua (model "psi_omega") and
-- cases/square_cylinder.lua ("projection"): reads the params, runs, and prints the
-- figures in lines that start with RESULT.
function M.main(model)
  local signal = require("flowlua.signal")
  local Re = param("Re", 20)
  local unsteady = Re >= M.breuer.Re_crit
  -- At Re = 100 psi_omega needs D >= 16 cells: at 8 (cell Reynolds number 19, central
  -- convection of the vorticity) its drag came out 2.7 instead of about 1.4 and the wake
  -- swung far beyond the projection model's (docs/validation.md).
  local n = param("n", unsteady and 16 or 8)
  local length = param("length", 50)
  local scheme = param("scheme", "adi")
  local t_end = param("t_end", unsteady and 250 or 400)
  local cfl = param("cfl", 0.5)
  local perturb = param("perturb", unsteady and 0.2 or 0)
  local sample = param("sample", 0.1)
  local steady = param("steady", unsteady and 0 or 1e-4)

  local sim = M.simulation {
    model = model, n = n, Re = Re, length = length, scheme = model == "psi_omega" and scheme or nil,
    t_end = t_end, cfl = cfl, perturb = perturb, steady = steady > 0 and steady or nil,
  }
  print(string.format("square cylinder (%s%s): Re = %g, %d x %d cells, D = %d cells, channel %g D, t_end = %g",
                      model, model == "psi_omega" and ", " .. scheme or "", Re, sim.nx, sim.ny, n, length, t_end))

  local ts, cds, cls = {}, {}, {}
  if unsteady then
    sim:every_time(sample, function(s)
      local f = s:forces(1, { U = 1, L = M.D })
      ts[#ts + 1], cds[#cds + 1], cls[#cls + 1] = s.time, f.cd, f.cl
    end)
  end
  sim:every_time(param("report", 25), function(s)
    local f = s:forces(1, { U = 1, L = M.D })
    print(string.format("t = %7.2f  step %7d  dt %.3e  cd %.4f  cl %+.4f", s.time, s.step, s.dt, f.cd, f.cl))
  end)
  local report = sim:run()
  print(string.format("stopped at t = %.2f after %d steps, %.1f s wall%s", sim.time, sim.step, report.wall,
                      report.reason and (" (" .. report.reason .. ")") or ""))

  local f = sim:forces(1, { U = 1, L = M.D })
  if not unsteady then
    local lr, lr_centre = M.recirculation(sim, length)
    local ref = M.breuer.recirculation(Re)
    print(string.format("RESULT model=%s Re=%g n=%d cd=%.4f cd_pressure=%.4f cd_viscous=%.4f cl=%.2e", model, Re, n,
                        f.cd, f.cd_pressure, f.cd_viscous, f.cl))
    if lr then
      print(string.format("RESULT L_r/D=%.4f (from the rear face; %.4f from the centre)  Breuer fit %.4f: %+.2f%%",
                          lr, lr_centre, ref, 100 * (lr - ref) / ref))
    else
      print("RESULT no recirculation behind the square")
    end
  else
    local r = signal.shedding(ts, cds, cls, sim.time * 2 / 3, M.D, 1)
    if r.St then
      print(string.format("RESULT model=%s Re=%g n=%d St=%.4f (Breuer %.3f: %+.2f%%) cd_mean=%.4f cl_amplitude=%.4f periods=%d spread=%.3f",
                          model, Re, n, r.St, M.breuer.St100, 100 * (r.St - M.breuer.St100) / M.breuer.St100,
                          r.cd_mean, r.cl_amplitude, r.cycles, r.spread))
    else
      print(string.format("RESULT model=%s Re=%g n=%d no shedding by t = %.1f (cd %.4f, cl %.2e): run longer",
                          model, Re, n, sim.time, f.cd, f.cl))
    end
  end
  flow.write_png(sim:field("vorticity"), "vorticity.png", { colormap = "coolwarm", range = { -5, 5 } })
end

return M
