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
-- (channel length in D, default 50; the square stays at length / 4), offset (the
-- square's centre above the channel's centreline, in D, a multiple of 1/n; default 0),
-- Um (default 1), scheme (time.scheme of psi_omega: "explicit" or "adi"),
-- wall_vorticity (psi_omega's kernels.wall_vorticity), t_end, steady, cfl, perturb (a
-- brief asymmetric inflow, x U_max, that starts the shedding: u (1 + perturb sin(pi t)
-- (2 y / H - 1)) for t < 1, which keeps the flux), pressure (a pressure table), bodies
-- (projection's kernels.bodies; left out, the square on grid lines stays cells).
--
-- sq.recirculation(sim) measures the recirculation length behind the square,
-- sq.shedding_monitor the Strouhal number of a shedding run, sq.main drives the two
-- cases, and sq.breuer holds the reference figures (see their comment).
local M = { D = 1, H = 8 }

-- Breuer et al. (2000): the recirculation length L_r, measured from the rear face of
-- the square to the end of the recirculation on the centreline, grows linearly for
-- 5 < Re < 60 (their fit L_r / D = -0.065 + 0.0554 Re); shedding sets in near Re = 60;
-- at Re = 100, St = 0.139 (their St(Re) figure). UNVERIFIED: these are the figures as
-- this module's first author recalled them, not read from the paper. A search of the
-- search tool's stores (2026-11-26: web pages, documentation, code and issues; the
-- paper's title and authors, papers and lattice-Boltzmann examples that quote it) found
-- its abstract (https://paperexplained.cn/articles/paper/detail/f10e0b775a28ba57956d382d3a94aa20b533edc9:
-- blockage 1/8, Re up to 300 on the maximum inflow velocity, L_r, cd and St studied)
-- and citations, but no page that gives its L_r or St values. Check both against the
-- paper before quoting the comparisons (docs/validation.md).
M.breuer = {
  recirculation = function(Re) return -0.065 + 0.0554 * Re end,
  St100 = 0.139,
  Re_crit = 60,
}

function M.inflow(y, Um) return 4 * Um * y * (M.H - y) / (M.H * M.H) end

-- Where the square is in a channel of `length` D, its centre `offset` D above the
-- centreline (default 0): its faces x0, x1, y0, y1.
function M.square(length, offset)
  local xc, yc = length / 4, M.H / 2 + (offset or 0) * M.D
  return xc - M.D / 2, xc + M.D / 2, yc - M.D / 2, yc + M.D / 2
end

function M.simulation(o)
  local n = o.n or 8
  assert(n % 2 == 0, "square_cylinder: n (cells per D) must be even, so that the square's faces lie on grid lines")
  local length = o.length or 50
  local Um = o.Um or 1
  local Re = o.Re or 20
  local perturb = o.perturb or 0
  local x0, x1, y0, y1 = M.square(length, o.offset)
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
    if o.wall_vorticity then case.kernels = { wall_vorticity = o.wall_vorticity } end
  else
    case.kernels = { advection = "central", bodies = o.bodies }
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

-- Watches the lift of a shedding run, sampled at times t: the upward crossings of
-- cl = 0 (the geometry is symmetric, so the lift's mean is zero) cut it into periods.
-- The shedding has saturated once three successive periods have amplitudes (largest
-- |cl|) within `tol` of each other; from the next crossing on, `periods` periods are
-- measured. add(t, cd, cl) returns true when they are; result() gives
--   { St, period, cd_mean, cl_amplitude, periods (measured), spread (max - min period
--     over the mean), t0, t1 (the window), saturated }
-- and, before saturation, the same over the periods seen so far (saturated = false).
function M.shedding_monitor(o)
  local D, U, want, tol = o.D or M.D, o.U or 1, o.periods or 6, o.tol or 0.01
  local ts, cds, cls, up, amp = {}, {}, {}, {}, {}
  local peak, start = 0, nil
  local mon = {}
  function mon.add(t, cd, cl)
    local k = #ts
    ts[k + 1], cds[k + 1], cls[k + 1] = t, cd, cl
    peak = math.max(peak, math.abs(cl))
    if k >= 1 and cls[k] < 0 and cl >= 0 then
      up[#up + 1] = ts[k] + (t - ts[k]) * (-cls[k]) / (cl - cls[k])
      if #up >= 2 then amp[#amp + 1] = peak end  -- the period that just ended
      peak = 0
      local a = #amp
      if not start and a >= 3 and amp[a] > 1e-3 and math.abs(amp[a] - amp[a - 1]) <= tol * amp[a] and
         math.abs(amp[a - 1] - amp[a - 2]) <= tol * amp[a] then
        start = #up  -- measure from this crossing on
      end
    end
    return start ~= nil and #up >= start + want
  end
  function mon.result()
    local first, last = start, start and math.min(#up, start + want)
    if not start then first, last = math.max(1, #up - want), #up end
    local r = { saturated = start ~= nil, periods = last - first }
    if r.periods < 1 then return r end
    r.t0, r.t1 = up[first], up[last]
    r.period = (r.t1 - r.t0) / r.periods
    r.St = D / (r.period * U)
    local pmin, pmax = math.huge, -math.huge
    for k = first, last - 1 do
      pmin, pmax = math.min(pmin, up[k + 1] - up[k]), math.max(pmax, up[k + 1] - up[k])
    end
    r.spread = (pmax - pmin) / r.period
    local signal = require("flowlua.signal")
    local tw, cdw = signal.window(ts, cds, r.t0, r.t1)
    local _, clw = signal.window(ts, cls, r.t0, r.t1)
    r.cd_mean = signal.time_mean(tw, cdw)
    r.cl_amplitude = signal.amplitude(clw)
    return r
  end
  return mon
end

-- The driver of cases/psi_omega/square_cylinder.lua (model "psi_omega") and
-- cases/square_cylinder.lua ("projection"): reads the params, runs, and prints one
-- line "RESULT key=value ..." (read by tests/gpu/square_cylinder_on_device.sh).
-- Below Re_crit the run stops at the steady state (time.steady) and the line has the
-- recirculation length; above it the shedding monitor above stops it once `periods`
-- saturated periods are measured, and the line has St, the mean drag and the lift
-- amplitude. `wall` (seconds, 0: none) stops a run that takes longer; its line then
-- says status=wall_limit (and, shedding, the periods it has).
function M.main(model)
  local Re = param("Re", 20)
  local unsteady = Re >= M.breuer.Re_crit
  -- At Re = 100 psi_omega needs D >= 16 cells: at 8 (cell Reynolds number U h / nu =
  -- 12.5, central convection of the vorticity) its drag came out 2.7 instead of about
  -- 1.4 and the wake swung far beyond the projection model's (docs/validation.md).
  local n = param("n", unsteady and 16 or 8)
  local length = param("length", 50)
  local scheme = param("scheme", "adi")
  local t_end = param("t_end", unsteady and 400 or 600)
  local cfl = param("cfl", 0.5)
  local perturb = param("perturb", unsteady and 1 or 0)
  local sample = param("sample", 0.1)
  local steady = param("steady", 1e-4)
  local periods = param("periods", 6)
  local report_every = param("report", 25)
  local wall = param("wall", 0)

  local sim = M.simulation {
    model = model, n = n, Re = Re, length = length, scheme = model == "psi_omega" and scheme or nil,
    t_end = t_end, cfl = cfl, perturb = perturb, steady = (not unsteady and steady > 0) and steady or nil,
  }
  print(string.format("square cylinder (%s%s, %s): Re = %g, %d x %d cells, D = %d cells, channel %g D, t_end = %g",
                      model, model == "psi_omega" and ", " .. scheme or "", sim.backend, Re, sim.nx, sim.ny, n,
                      length, t_end))

  local started = os.time()
  local hit_wall = false
  local function over_wall(s)
    if wall > 0 and os.time() - started >= wall then
      hit_wall = true
      s:stop()
    end
  end
  local mon = M.shedding_monitor { periods = periods }
  if unsteady then
    sim:every_time(sample, function(s)
      local f = s:forces(1, { U = 1, L = M.D })
      if mon.add(s.time, f.cd, f.cl) then s:stop() end
    end)
  end
  sim:every_time(report_every, function(s)
    local f = s:forces(1, { U = 1, L = M.D })
    print(string.format("t = %7.2f  step %7d  dt %.3e  cd %.4f  cl %+.4f", s.time, s.step, s.dt, f.cd, f.cl))
  end)
  sim:every(50, over_wall)
  local report = sim:run()
  if sim.step == 0 then return end  -- --explain: nothing ran
  print(string.format("stopped at t = %.2f after %d steps, %.1f s wall%s", sim.time, sim.step, report.wall,
                      report.reason and (" (" .. report.reason .. ")") or ""))

  local head = string.format("RESULT model=%s backend=%s Re=%g n=%d length=%g t=%.2f steps=%d wall=%.1f", model,
                             sim.backend, Re, n, length, sim.time, sim.step, report.wall)
  local f = sim:forces(1, { U = 1, L = M.D })
  if not unsteady then
    local status = hit_wall and "wall_limit" or (report.reason == "reached a steady state" and "steady" or "not_steady")
    local lr = M.recirculation(sim, length)
    local ref = M.breuer.recirculation(Re)
    print(string.format("%s status=%s cd=%.4f cd_pressure=%.4f cd_viscous=%.4f cl=%.2e Lr=%s Lr_centre=%s " ..
                        "Lr_breuer_fit=%.4f", head, status, f.cd, f.cd_pressure, f.cd_viscous, f.cl,
                        lr and string.format("%.4f", lr) or "none", lr and string.format("%.4f", lr + 0.5) or "none",
                        ref))
  else
    local r = mon.result()
    local status = r.saturated and r.periods >= periods and "periodic" or (hit_wall and "wall_limit" or "unsaturated")
    if r.St then
      print(string.format("%s status=%s St=%.4f cd_mean=%.4f cl_amplitude=%.4f periods=%d spread=%.4f window=%.2f-%.2f%s",
                          head, status, r.St, r.cd_mean, r.cl_amplitude, r.periods, r.spread, r.t0, r.t1,
                          Re == 100 and string.format(" St_breuer=%.3f", M.breuer.St100) or ""))
    else
      print(string.format("%s status=no_shedding cd=%.4f cl=%.2e", head, f.cd, f.cl))
    end
  end
  flow.write_png(sim:field("vorticity"), "vorticity.png", { colormap = "coolwarm", range = { -5, 5 } })
end

return M
