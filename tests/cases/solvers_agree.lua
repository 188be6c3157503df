-- Every pressure solver gives the same flow. The lid-driven cavity (32 x 32, Re = 100,
-- to t = 1: walls on all sides, no obstacle, so every solver applies, fft included)
-- and the backward-facing step of cases/step.lua shortened (domain 12 x 1.5 instead
-- of 29 x 1.5, 96 x 12 cells, to t = 2: an obstacle and an outflow side, so no fft)
-- run with each solver to a relative residual of 1e-10; their centreline velocities
-- must agree with the rbsor run to 1e-8 (measured: 1.6e-12 .. 3.3e-12 on the cavity,
-- 6.3e-14 .. 2.4e-13 on the step, in double on the CPU; a solver that is wrong
-- anywhere gives differences of order 1e-2).
-- The step's rbsor runs at omega = 1.97, near the optimum 2 / (1 + sqrt(1 - rho^2)) =
-- 1.977 for its slowest mode (Jacobi's rho = (1 + cos(pi / 192)) / 2 about: 96 square
-- cells along x with p fixed at the outflow only, constant across): the same tolerance
-- in 2.9 s of CPU instead of 23 s at omega = 1.8 (2.9e-13 .. 3.1e-13 there).
local tol = 1e-10
local agree = 1e-8

local cavity_solvers = {
  { solver = "rbsor", omega = 1.8 },
  { solver = "cg" },
  { solver = "pcg", preconditioner = "jacobi" },
  { solver = "pcg", preconditioner = "multigrid" },
  { solver = "pcg", preconditioner = "fft" },
  { solver = "multigrid", cycle = "V" },
  { solver = "multigrid", cycle = "F", pre_smooth = 1, post_smooth = 1 },
  { solver = "fft" },
}
local step_solvers = {
  { solver = "rbsor", omega = 1.97 },
  { solver = "cg" },
  { solver = "pcg", preconditioner = "multigrid" },
  { solver = "multigrid", cycle = "V" },
  { solver = "multigrid", cycle = "F" },
}

local function name(p)
  local s = p.solver
  if p.preconditioner then s = s .. "/" .. p.preconditioner end
  if p.cycle then s = s .. "/" .. p.cycle end
  return s
end

local function with_tol(p)
  local q = { tol = tol, max_iter = 200000 }
  for k, v in pairs(p) do q[k] = v end
  return q
end

local function cavity(p)
  local sim = flow.simulation {
    grid = { nx = 32, ny = 32, lx = 1, ly = 1 },
    fluid = { nu = 0.01 },
    boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
    time = { t_end = 1.0 },
    pressure = with_tol(p),
  }
  sim:run()
  return sim:field("u"):line { x = 0.5 }, sim:field("v"):line { y = 0.5 }
end

local LX, LY, xs, S = 12.0, 1.5, 3.0, 0.75
local function step(p)
  local sim = flow.simulation {
    grid = { nx = 96, ny = 12, lx = LX, ly = LY },
    fluid = { Re = 100 },
    boundaries = {
      left = flow.inflow { u = function(y) return y > S and 1.0 or 0.0 end },
      right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
    },
    obstacles = { flow.rect { x0 = 0, y0 = 0, x1 = xs, y1 = S } },
    initial = { u = function(x, y) return y > S and 1.0 or 0.0 end },
    time = { t_end = 2.0, cfl = 0.5 },
    pressure = with_tol(p),
  }
  sim:run()
  return sim:field("u"):line { y = 0.5 * sim.dy }, sim:field("u"):line { x = xs + 2 }
end

local function max_diff(a, b)
  assert(#a == #b, "lines of different length")
  local m = 0
  for k = 1, #a do m = math.max(m, math.abs(a[k].value - b[k].value)) end
  return m
end

local function compare(label, run, solvers)
  local ref1, ref2 = run(solvers[1])
  for k = 2, #solvers do
    local l1, l2 = run(solvers[k])
    local d = math.max(max_diff(ref1, l1), max_diff(ref2, l2))
    print(string.format("%-8s %-22s max velocity difference from %s: %.2e", label, name(solvers[k]),
                        name(solvers[1]), d))
    assert(d < agree, string.format("%s: %s differs from %s by %.3e (limit %g)", label, name(solvers[k]),
                                    name(solvers[1]), d, agree))
  end
end

compare("cavity", cavity, cavity_solvers)
compare("step", step, step_solvers)
