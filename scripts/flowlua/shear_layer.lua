-- Kelvin-Helmholtz shear layers in a periodic box (fractional_step model).
--   local kh = require("flowlua.shear_layer")
--   kh.michalke_k, kh.michalke_rate   -- k delta = 0.4449, sigma = 0.1897 U / delta
--   kh.initial{ U =, delta =, lx =, ly =, eps = }  --> initial = { u = f, v = f }
--   kh.mode_amplitude(sim, lx)  --> amplitude of the x-Fourier mode 1 of v, max over y
--   kh.fit_rate(samples, t0, t1) --> least-squares slope of log(amplitude) over [t0, t1]
--
-- The profile is U tanh(y / delta) (Michalke 1964), made periodic in y as two layers
-- of opposite sign at ly/4 and 3 ly/4: u = U (tanh((y - ly/4)/delta)
-- - tanh((y - 3 ly/4)/delta) - 1). For ly >> delta each layer is a tanh layer whose
-- inviscid most unstable mode has k delta = 0.4449 and growth rate 0.1897 U / delta
-- (Michalke, J. Fluid Mech. 19, 1964, table 1). The perturbation is a single mode of
-- that wavelength, divergence free (from a stream function eps U delta cos(k x) g(y)
-- with a Gaussian g of width 2 delta around each layer).
local M = {}

M.michalke_k = 0.4449
M.michalke_rate = 0.1897

function M.initial(o)
  local U, d, lx, ly, eps = o.U or 1, o.delta or 1, o.lx, o.ly, o.eps or 1e-4
  local k = 2 * math.pi / lx
  local y1, y2 = ly / 4, 3 * ly / 4
  local s = 2 * d
  local function g(y) return math.exp(-((y - y1) / s) ^ 2) + math.exp(-((y - y2) / s) ^ 2) end
  local function dg(y)
    return -2 * (y - y1) / s ^ 2 * math.exp(-((y - y1) / s) ^ 2) - 2 * (y - y2) / s ^ 2 * math.exp(-((y - y2) / s) ^ 2)
  end
  return {
    -- u = U0(y) + d psi / dy, v = -d psi / dx with psi = eps U d cos(k x) g(y)
    u = function(x, y)
      return U * (math.tanh((y - y1) / d) - math.tanh((y - y2) / d) - 1) + eps * U * d * math.cos(k * x) * dg(y)
    end,
    v = function(x, y) return eps * U * d * k * math.sin(k * x) * g(y) end,
  }
end

-- |v_1(y)| = (2 / nx) |sum_i v(i, j) e^{-i k x_i}|, largest over the rows.
function M.mode_amplitude(sim, lx)
  local v = sim:field("v")
  local nx, ny = v:size()
  local best = 0
  for j = 1, ny do
    local c, s = 0, 0
    for i = 1, nx do
      local x = (i - 0.5) * lx / nx
      local val = v:get(i, j)
      c = c + val * math.cos(2 * math.pi * x / lx)
      s = s + val * math.sin(2 * math.pi * x / lx)
    end
    best = math.max(best, 2 / nx * math.sqrt(c * c + s * s))
  end
  return best
end

-- samples: list of { t, amplitude }.
function M.fit_rate(samples, t0, t1)
  local n, st, sy, stt, sty = 0, 0, 0, 0, 0
  for _, p in ipairs(samples) do
    if p[1] >= t0 and p[1] <= t1 then
      local y = math.log(p[2])
      n, st, sy, stt, sty = n + 1, st + p[1], sy + y, stt + p[1] * p[1], sty + p[1] * y
    end
  end
  if n < 3 then error("fit_rate: fewer than 3 samples in [" .. t0 .. ", " .. t1 .. "]", 2) end
  return (n * sty - st * sy) / (n * stt - st * st)
end

return M
