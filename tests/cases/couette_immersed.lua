-- Circular Couette flow: the inner cylinder (r < R1) turns at omega, the outer one
-- (r > R2, given as a level set) rests. Exact: u_theta = A r + B / r with
-- A = -omega R1^2 / (R2^2 - R1^2), B = omega R1^2 R2^2 / (R2^2 - R1^2), and the torque
-- on the inner cylinder per unit depth T = -4 pi mu B (tests/cases/couette_torque.lua).
--
-- The same case on three grids (h halving) with the two body treatments
-- (kernels.bodies): the immersed boundary (direct forcing with linear interpolation,
-- Fadlun et al. 2000) must converge at second order in the velocity (error ratio >= 3.5
-- per halving), the staircase at first order (over both halvings). The gap is a third of
-- the outer radius: on coarser shapes (a gap of 0.3 with R1 = 0.15) the immersed error
-- is still pre-asymptotic at these grids (ratios 2.3-2.6 measured at 20/40/80).
--
-- Each run starts from the exact solution and steps for six of the annulus'
-- slowest diffusive decay times, (R2 - R1)^2 / (pi^2 nu), so what remains is the
-- discretisation error. Low Reynolds number (omega R1 (R2 - R1) / nu = 4.5).
local xc, yc = 0.5, 0.5
local R1, R2, omega, nu = 0.3, 0.45, 1.0, 0.01
local A = -omega * R1 ^ 2 / (R2 ^ 2 - R1 ^ 2)
local B = omega * R1 ^ 2 * R2 ^ 2 / (R2 ^ 2 - R1 ^ 2)
local function u_theta(r)
  if r <= R1 then return omega * r end
  if r >= R2 then return 0 end
  return A * r + B / r
end
local function exact(x, y)
  local dx, dy = x - xc, y - yc
  local r = math.sqrt(dx * dx + dy * dy)
  if r == 0 then return 0, 0 end
  local ut = u_theta(r)
  return -ut * dy / r, ut * dx / r
end
local t_end = 6 * (R2 - R1) ^ 2 / (math.pi ^ 2 * nu)

local function run(n, bodies)
  local sim = flow.simulation {
    grid = { nx = n, ny = n, lx = 1, ly = 1 },
    fluid = { nu = nu },
    boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
    obstacles = {
      flow.circle { x = xc, y = yc, r = R1, omega = omega },
      flow.level_set(function(x, y) return R2 - math.sqrt((x - xc) ^ 2 + (y - yc) ^ 2) end),
    },
    initial = {
      u = function(x, y) return (exact(x, y)) end,
      v = function(x, y) local _, v = exact(x, y) return v end,
    },
    time = { t_end = t_end, cfl = 0.9 },
    kernels = { bodies = bodies },
    pressure = { solver = "multigrid", tol = 1e-9, max_iter = 100 },
  }
  sim:run()
  local fu, fv = sim:field("u"), sim:field("v")
  local sum, count, worst = 0, 0, 0
  local h = 1 / n
  for j = 1, n do
    for i = 1, n do
      local x, y = (i - 0.5) / n, (j - 0.5) / n
      local r = math.sqrt((x - xc) ^ 2 + (y - yc) ^ 2)
      -- Cells whose faces are all in the fluid (a cell-centred value averages two
      -- faces; across the surface the exact velocity has a kink).
      if r > R1 + h and r < R2 - h then
        local ue, ve = exact(x, y)
        local e = math.sqrt((fu:get(i, j) - ue) ^ 2 + (fv:get(i, j) - ve) ^ 2)
        sum, count, worst = sum + e * e, count + 1, math.max(worst, e)
      end
    end
  end
  return math.sqrt(sum / count) / (omega * R1), worst / (omega * R1)
end

local grids = { 30, 60, 120 }
local results = {}
for _, bodies in ipairs({ "immersed", "staircase" }) do
  local errs, maxs = {}, {}
  for k, n in ipairs(grids) do
    local e, m = run(n, bodies)
    errs[k], maxs[k] = e, m
    print(string.format("%-9s n = %3d: velocity error rms %.3e max %.3e (of omega R1)", bodies, n, e, m))
  end
  results[bodies] = { errs = errs, maxs = maxs }
  for k = 2, #grids do
    print(string.format("%-9s ratio %d -> %d: rms %.2f, max %.2f", bodies, grids[k - 1], grids[k],
                        errs[k - 1] / errs[k], maxs[k - 1] / maxs[k]))
  end
end

local im, st = results.immersed, results.staircase
for k = 2, #grids do
  local r = im.errs[k - 1] / im.errs[k]
  assert(r >= 3.5, string.format("immersed: rms velocity error ratio %.2f from n = %d to %d, expected >= 3.5 "
                                 .. "(second order)", r, grids[k - 1], grids[k]))
end
-- The staircase's error depends on how the circles fall on the grid, so one halving
-- may gain more or less than 2 (measured 3.99 then 1.63): over both halvings its mean
-- order must be first (overall ratio 2 .. 8, orders 0.5 .. 1.5).
local rs = st.errs[1] / st.errs[#grids]
assert(rs > 2 and rs < 8, string.format("staircase: rms velocity error ratio %.2f over two halvings, expected "
                                        .. "first order (2 .. 8)", rs))
-- The finest immersed grid is far more accurate than the finest staircase one.
assert(im.errs[#grids] < 0.2 * st.errs[#grids], "the immersed boundary is not more accurate than the staircase")
