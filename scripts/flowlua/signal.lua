-- signal.lua: small tools for sampled time series (lists of times and values), used
-- by cases/cylinder.lua and its test to get a shedding frequency from a lift signal.
--
--   local signal = require("flowlua.signal")
--   local t, cl = signal.window(ts, cls, t0)         -- the part with t >= t0
--   local r = signal.periodic(t, cl)                 -- period from zero crossings
--   print(r.period, r.crossings, r.spread, r.amplitude)
--
-- All functions take plain Lua lists (1-based, same length, times increasing).
local M = {}

local function check(t, x)
  assert(type(t) == "table" and type(x) == "table", "signal: expected two lists")
  assert(#t == #x, string.format("signal: %d times but %d values", #t, #x))
end

-- Mean, minimum and maximum of a list.
function M.mean(x)
  local s = 0
  for i = 1, #x do s = s + x[i] end
  return #x > 0 and s / #x or 0 / 0
end

function M.min(x)
  local m = math.huge
  for i = 1, #x do if x[i] < m then m = x[i] end end
  return m
end

function M.max(x)
  local m = -math.huge
  for i = 1, #x do if x[i] > m then m = x[i] end end
  return m
end

-- Half the peak-to-peak range.
function M.amplitude(x)
  return 0.5 * (M.max(x) - M.min(x))
end

-- Time average of x over the samples with trapezoids (robust to uneven steps).
function M.time_mean(t, x)
  check(t, x)
  if #t < 2 then return x[1] end
  local s = 0
  for i = 2, #t do s = s + 0.5 * (x[i] + x[i - 1]) * (t[i] - t[i - 1]) end
  return s / (t[#t] - t[1])
end

-- The samples with t >= t0 (and t <= t1 if given), as two new lists.
function M.window(t, x, t0, t1)
  check(t, x)
  local tw, xw = {}, {}
  for i = 1, #t do
    if t[i] >= t0 and (t1 == nil or t[i] <= t1) then
      tw[#tw + 1] = t[i]
      xw[#xw + 1] = x[i]
    end
  end
  return tw, xw
end

-- Times where x crosses `level` upwards (x[i] < level <= x[i+1]), with linear
-- interpolation between the two samples.
function M.upward_crossings(t, x, level)
  check(t, x)
  level = level or 0
  local c = {}
  for i = 1, #t - 1 do
    local a, b = x[i] - level, x[i + 1] - level
    if a < 0 and b >= 0 then
      c[#c + 1] = t[i] + (t[i + 1] - t[i]) * (-a) / (b - a)
    end
  end
  return c
end

-- All sign changes of x - level (up and down), interpolated linearly.
function M.crossings(t, x, level)
  check(t, x)
  level = level or 0
  local c = {}
  for i = 1, #t - 1 do
    local a, b = x[i] - level, x[i + 1] - level
    if (a < 0 and b >= 0) or (a >= 0 and b < 0) then
      c[#c + 1] = t[i] + (t[i + 1] - t[i]) * (-a) / (b - a)
    end
  end
  return c
end

-- Local maxima of x (strictly larger than the left neighbour, at least the right
-- one), refined with a parabola through the three samples; returns times, values.
function M.maxima(t, x)
  check(t, x)
  local tm, xm = {}, {}
  for i = 2, #t - 1 do
    if x[i] > x[i - 1] and x[i] >= x[i + 1] then
      local t0, t1, t2 = t[i - 1], t[i], t[i + 1]
      local y0, y1, y2 = x[i - 1], x[i], x[i + 1]
      -- vertex of the parabola through the three points
      local d = (t0 - t1) * (t0 - t2) * (t1 - t2)
      local a = (t2 * (y1 - y0) + t1 * (y0 - y2) + t0 * (y2 - y1)) / d
      local b = (t2 * t2 * (y0 - y1) + t1 * t1 * (y2 - y0) + t0 * t0 * (y1 - y2)) / d
      local c = (t1 * t2 * (t1 - t2) * y0 + t2 * t0 * (t2 - t0) * y1 + t0 * t1 * (t0 - t1) * y2) / d
      if a < 0 then
        local tv = -b / (2 * a)
        if tv >= t0 and tv <= t2 then
          tm[#tm + 1], xm[#xm + 1] = tv, c - b * b / (4 * a)
        else
          tm[#tm + 1], xm[#xm + 1] = t1, y1
        end
      else
        tm[#tm + 1], xm[#xm + 1] = t1, y1
      end
    end
  end
  return tm, xm
end

-- Differences between successive entries of a list.
function M.diffs(c)
  local d = {}
  for i = 2, #c do d[#d + 1] = c[i] - c[i - 1] end
  return d
end

-- Period of an oscillating signal from its upward crossings of its own mean.
-- Returns a table:
--   period     mean time between successive upward crossings (nil if < 2 crossings)
--   crossings  number of sign changes of x - mean (up and down)
--   cycles     number of full periods measured (upward crossings - 1)
--   spread     (max period - min period) / mean period: 0 for a perfectly periodic
--              signal; a measure of how regular it is
--   mean       time average of x; amplitude: half its peak-to-peak range
--   min, max   extremes of x
function M.periodic(t, x)
  check(t, x)
  local m = M.time_mean(t, x)
  local up = M.upward_crossings(t, x, m)
  local all = M.crossings(t, x, m)
  local r = { mean = m, amplitude = M.amplitude(x), min = M.min(x), max = M.max(x),
              crossings = #all, cycles = math.max(#up - 1, 0) }
  if #up >= 2 then
    local d = M.diffs(up)
    r.period = (up[#up] - up[1]) / (#up - 1)
    r.spread = (M.max(d) - M.min(d)) / r.period
  end
  return r
end

-- Shedding analysis of a drag/lift record: times t, drag coefficients cd, lift
-- coefficients cl, from time t0 on; D and U give the Strouhal number f D / U.
-- Returns { St, period, cd_mean, cd_max, cd_min, cl_mean, cl_max, cl_min,
--           cl_amplitude, crossings, cycles, spread, St_maxima, samples }
-- where St_maxima is the Strouhal number from the time between successive lift maxima
-- (a second estimate; nil when there are fewer than two maxima).
function M.shedding(t, cd, cl, t0, D, U)
  local tw, clw = M.window(t, cl, t0)
  local _, cdw = M.window(t, cd, t0)
  local p = M.periodic(tw, clw)
  local r = {
    period = p.period, crossings = p.crossings, cycles = p.cycles, spread = p.spread,
    cl_mean = p.mean, cl_max = p.max, cl_min = p.min, cl_amplitude = p.amplitude,
    cd_mean = M.time_mean(tw, cdw), cd_max = M.max(cdw), cd_min = M.min(cdw),
    samples = #tw,
  }
  if p.period then r.St = D / (p.period * U) end
  -- second estimate: time between successive lift maxima above the mean (skips
  -- small wiggles near the zero line)
  local big = {}
  local tm, xm = M.maxima(tw, clw)
  for i = 1, #tm do if xm[i] > p.mean then big[#big + 1] = tm[i] end end
  if #big >= 2 then
    r.St_maxima = D * (#big - 1) / ((big[#big] - big[1]) * U)
  end
  return r
end

return M
