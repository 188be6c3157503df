-- The shedding monitor of scripts/flowlua/square_cylinder.lua (it decides when a run at
-- Re = 100 stops and which periods give St) on a made-up lift signal: an oscillation of
-- period 7.2 whose amplitude grows as 0.5 (1 - exp(-t / 10)), sampled every 0.1, and a
-- drag 1.4 + 0.01 sin(2 omega t). The monitor must not stop while the amplitude still
-- grows by more than 1% a period (until t = 43 or so), must then measure 6 periods and
-- stop, and give the period, the mean drag and the amplitude of those periods. No
-- simulation: milliseconds.
local sq = require("flowlua.square_cylinder")

local T = 7.2
local mon = sq.shedding_monitor { periods = 6 }
local stopped_at
local t = 0
while t < 200 do
  t = t + 0.1
  local amp = 0.5 * (1 - math.exp(-t / 10))
  local cl = amp * math.sin(2 * math.pi * t / T)
  local cd = 1.4 + 0.01 * math.sin(4 * math.pi * t / T)
  if mon.add(t, cd, cl) then
    stopped_at = t
    break
  end
  if t > 20 and t < 21 then
    local r = mon.result()  -- before saturation: the periods so far, flagged
    assert(r.saturated == false, "saturated already at t = " .. t)
  end
end
assert(stopped_at, "the monitor never stopped")
local r = mon.result()
print(string.format("stopped at t = %.1f: St %.6f (1 / T = %.6f), window %.2f-%.2f, cd_mean %.5f, cl_amplitude %.4f, " ..
                    "spread %.2e", stopped_at, r.St, 1 / T, r.t0, r.t1, r.cd_mean, r.cl_amplitude, r.spread))
assert(r.saturated and r.periods == 6, "periods " .. tostring(r.periods))
assert(r.t0 > 43, "measured from t = " .. r.t0 .. ", while the amplitude still grew by more than 1% a period")
assert(stopped_at < r.t1 + 0.2, "did not stop at the end of the sixth period")
assert(math.abs(r.St - 1 / T) < 1e-4 / T, "St " .. r.St)
assert(math.abs(r.cd_mean - 1.4) < 1e-3, "cd_mean " .. r.cd_mean)
assert(math.abs(r.cl_amplitude - 0.5) < 0.01, "cl_amplitude " .. r.cl_amplitude)
