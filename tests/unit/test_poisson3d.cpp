// The pressure solvers in 3D (PoissonView3, D = 3) against manufactured solutions of
// lap p = f on the unit cube: second order for every solver in both precisions, on
// a wall box (cosine transforms, singular) and on a box with a periodic, a wall and
// an outflow axis; the 3D multigrid levels; the per-axis and periodic FFT solves the
// CUDA backend runs, checked on the CPU against FFTW's 3D real-to-real transforms;
// and solvers agreeing around an obstacle.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "linalg/fft_poisson3.hpp"
#include "linalg/multigrid_levels3.hpp"
#include "linalg/poisson_run.hpp"

using namespace flowlua;

namespace {

const double kPi = 3.14159265358979323846;

struct Solver {
  std::string name;
  PressureSolverKind kind;
  PreconditionerKind pre = PreconditionerKind::Jacobi;
  MultigridCycle cycle = MultigridCycle::V;
};

const std::vector<Solver>& solvers() {
  static const std::vector<Solver> s = {
      {"rbsor", PressureSolverKind::RedBlackSOR},
      {"cg", PressureSolverKind::ConjugateGradient},
      {"pcg_jacobi", PressureSolverKind::PreconditionedCG, PreconditionerKind::Jacobi},
      {"pcg_multigrid", PressureSolverKind::PreconditionedCG, PreconditionerKind::Multigrid},
      {"pcg_fft", PressureSolverKind::PreconditionedCG, PreconditionerKind::FFT},
      {"multigrid_v", PressureSolverKind::Multigrid},
      {"multigrid_f", PressureSolverKind::Multigrid, PreconditionerKind::Jacobi, MultigridCycle::F},
      {"fft", PressureSolverKind::FFT},
  };
  return s;
}

PressureControl control(const Solver& s, Precision prec) {
  PressureControl c;
  c.solver = s.kind;
  c.preconditioner = s.pre;
  c.cycle = s.cycle;
  // float: above the rounding floor of CG's true residual on the singular wall box
  // (1.1e-5 measured at 16^3), far below the discretisation error the test measures.
  c.tol = prec == Precision::Double ? 1e-10 : 3e-5;
  c.max_iter = 100000;
  c.omega = 1.85;
  return c;
}

// A box problem: sides (left, right, bottom, top, back, front) and the exact solution.
struct Box {
  BoundaryKind x, y, z;  // both sides of each axis (Dirichlet = velocity wall = Neumann for p)
  std::function<double(double, double, double)> exact;
  double lap_factor;     // lap p = -lap_factor pi^2 p
};

PoissonProblem3 problem(const Box& b, int n, std::vector<std::uint8_t> solid = {}) {
  const Grid3 g = Grid3::make(n, n, n, 1, 1, 1);
  Boundaries3 s;
  s[0].kind = s[1].kind = b.x;
  s[2].kind = s[3].kind = b.y;
  s[4].kind = s[5].kind = b.z;
  FlagReport fl = build_flags3(g, s, std::move(solid));
  const Neighbours3 nb{n, n, n, b.x == BoundaryKind::Periodic, b.y == BoundaryKind::Periodic,
                       b.z == BoundaryKind::Periodic};
  return PoissonProblem3{g, nb, fl.flags};
}

// Max error of the solver's p against the exact solution (means removed when the
// problem is singular).
double solve_error(const Box& b, const Solver& s, Precision prec, int n) {
  const PoissonProblem3 pr = problem(b, n);
  const Grid3& g = pr.grid;
  std::vector<double> rhs(g.size(), 0.0);
  double mean = 0;
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        rhs[g.at(i, j, k)] = -b.lap_factor * kPi * kPi * b.exact(g.xc(i), g.yc(j), g.zc(k));
        mean += rhs[g.at(i, j, k)];
      }
  const bool singular = pr.singular();
  if (singular)
    for (int k = 1; k <= n; ++k)
      for (int j = 1; j <= n; ++j)
        for (int i = 1; i <= n; ++i) rhs[g.at(i, j, k)] -= mean / double(g.cells());
  PoissonRun run = run_poisson(BackendChoice::Cpu, prec, control(s, prec), pr, rhs);
  EXPECT_TRUE(run.report.converged) << s.name << " n " << n << " residual " << run.report.residual;
  double mp = 0, me = 0;
  if (singular)
    for (int k = 1; k <= n; ++k)
      for (int j = 1; j <= n; ++j)
        for (int i = 1; i <= n; ++i) {
          mp += run.p[g.at(i, j, k)];
          me += b.exact(g.xc(i), g.yc(j), g.zc(k));
        }
  mp /= double(g.cells());
  me /= double(g.cells());
  double err = 0;
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i)
        err = std::max(err, std::abs(run.p[g.at(i, j, k)] - mp - (b.exact(g.xc(i), g.yc(j), g.zc(k)) - me)));
  return err;
}

const Box kWalls{BoundaryKind::Dirichlet, BoundaryKind::Dirichlet, BoundaryKind::Dirichlet,
                 [](double x, double y, double z) { return std::cos(kPi * x) * std::cos(kPi * y) * std::cos(kPi * z); },
                 3.0};
// Periodic in x, walls in y, outflow (p = 0) on back and front.
const Box kMixed{BoundaryKind::Periodic, BoundaryKind::Dirichlet, BoundaryKind::Outflow,
                 [](double x, double y, double z) {
                   return std::cos(2 * kPi * x) * std::cos(kPi * y) * std::sin(kPi * z);
                 },
                 6.0};

void expect_second_order(const Box& b, Precision prec) {
  for (const Solver& s : solvers()) {
    const double e1 = solve_error(b, s, prec, 8), e2 = solve_error(b, s, prec, 16);
    const double order = std::log2(e1 / e2);
    EXPECT_GT(order, 1.85) << s.name << " (" << precision_name(prec) << "): errors " << e1 << ", " << e2;
    EXPECT_LT(order, 2.15) << s.name << " (" << precision_name(prec) << "): errors " << e1 << ", " << e2;
  }
}

}  // namespace

TEST(Poisson3d, SecondOrderWallBoxDouble) { expect_second_order(kWalls, Precision::Double); }
TEST(Poisson3d, SecondOrderWallBoxFloat) { expect_second_order(kWalls, Precision::Float); }
TEST(Poisson3d, SecondOrderPeriodicWallOutflowDouble) { expect_second_order(kMixed, Precision::Double); }
TEST(Poisson3d, SecondOrderPeriodicWallOutflowFloat) { expect_second_order(kMixed, Precision::Float); }

// The multigrid levels: 16^3 halves to 8^3, 4^3 (64 cells), with a flat box
// semi-coarsening in the fine directions first.
TEST(Poisson3d, MultigridLevels) {
  const auto cube = mg::plan_levels3(problem(kWalls, 16), 64);
  ASSERT_EQ(cube.size(), 3u);
  EXPECT_EQ(cube[2].grid.nx, 4);
  EXPECT_EQ(cube[2].grid.nz, 4);
  EXPECT_TRUE(cube[1].c[0] && cube[1].c[1] && cube[1].c[2]);
  // 16 x 16 x 4 on a unit cube: dz is 4x dx, so only x and y are halved at first.
  PoissonProblem3 flat = problem(kWalls, 16);
  flat.grid = Grid3::make(16, 16, 4, 1, 1, 1);
  Boundaries3 s;
  flat.flags = build_flags3(flat.grid, s, {}).flags;
  flat.nb = Neighbours3{16, 16, 4, false, false, false};
  const auto lv = mg::plan_levels3(flat, 64);
  ASSERT_GE(lv.size(), 2u);
  EXPECT_TRUE(lv[1].c[0] && lv[1].c[1]);
  EXPECT_FALSE(lv[1].c[2]);
  EXPECT_EQ(lv[1].grid.nz, 4);
}

// The transforms the CUDA backend runs (per-axis Makhoul, and the periodic box's
// 3D real FFT), on the CPU with FFTW's real FFTs, against FFTW's 3D real-to-real
// solve, on a box that is not a cube (n differs per axis, odd sizes included).
TEST(Poisson3d, BackendFftPathsMatchFftw) {
  const FftAxis kinds[3] = {FftAxis::Periodic, FftAxis::Cosine, FftAxis::Sine};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 3; ++c) {
        FftShape3 s;
        s.nx = 10; s.ny = 7; s.nz = 6;
        s.dx = 0.1; s.dy = 0.13; s.dz = 0.2;
        s.x = kinds[a]; s.y = kinds[b]; s.z = kinds[c];
        const Grid3 g = Grid3::make(s.nx, s.ny, s.nz, 1, 0.91, 1.2);
        std::vector<double> f(g.size(), 0.0), p1(g.size(), 0.0), p2(g.size(), 0.0);
        for (int k = 1; k <= s.nz; ++k)
          for (int j = 1; j <= s.ny; ++j)
            for (int i = 1; i <= s.nx; ++i) f[g.at(i, j, k)] = std::sin(1.3 * i + 0.7 * j * j + 2.1 * k) + 0.01 * i;
        auto ref = make_fft_core<CpuExec, double>(s);
        ref->solve(f.data(), p1.data());
        SeparableFftPoisson3<CpuExec, double> sep(s);
        sep.solve(f.data(), p2.data());
        double diff = 0, mag = 0;
        for (std::size_t q = 0; q < g.size(); ++q) {
          diff = std::max(diff, std::abs(p1[q] - p2[q]));
          mag = std::max(mag, std::abs(p1[q]));
        }
        EXPECT_LT(diff, 1e-12 * mag) << "axes " << a << b << c;
        if (s.all_periodic()) {
          PeriodicFftPoisson3<CpuExec, double> per(s);
          std::vector<double> p3(g.size(), 0.0);
          per.solve(f.data(), p3.data());
          double d3 = 0;
          for (std::size_t q = 0; q < g.size(); ++q) d3 = std::max(d3, std::abs(p1[q] - p3[q]));
          EXPECT_LT(d3, 1e-12 * mag);
        }
      }
}

// Around an obstacle (a box of solid cells) every iterative solver reaches the same
// pressure: the 3D flags, the coarse levels with obstacles and pcg's FFT box
// preconditioner all see the same operator.
TEST(Poisson3d, SolversAgreeAroundObstacle) {
  const int n = 16;
  const Grid3 g = Grid3::make(n, n, n, 1, 1, 1);
  std::vector<std::uint8_t> solid(std::size_t(n) * n * n, 0);
  for (int k = 6; k <= 10; ++k)
    for (int j = 5; j <= 9; ++j)
      for (int i = 7; i <= 11; ++i) solid[std::size_t(i - 1) + n * (std::size_t(j - 1) + n * (k - 1))] = 1;
  Box b = kWalls;
  b.z = BoundaryKind::Outflow;  // non-singular: the answers are comparable as they are
  const PoissonProblem3 pr = problem(b, n, solid);
  ASSERT_TRUE(pr.has_obstacles());
  std::vector<double> rhs(g.size(), 0.0);
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i)
        if (is_fluid(pr.flags[g.at(i, j, k)])) rhs[g.at(i, j, k)] = std::sin(3.0 * i) + std::cos(2.0 * j + k);
  std::vector<double> ref;
  for (const Solver& s : solvers()) {
    if (s.kind == PressureSolverKind::FFT) {
      EXPECT_THROW(run_poisson(BackendChoice::Cpu, Precision::Double, control(s, Precision::Double), pr, rhs),
                   CaseError);
      continue;
    }
    PoissonRun r = run_poisson(BackendChoice::Cpu, Precision::Double, control(s, Precision::Double), pr, rhs);
    EXPECT_TRUE(r.report.converged) << s.name;
    if (ref.empty()) { ref = r.p; continue; }
    double d = 0, m = 0;
    for (std::size_t q = 0; q < g.size(); ++q) {
      d = std::max(d, std::abs(r.p[q] - ref[q]));
      m = std::max(m, std::abs(ref[q]));
    }
    EXPECT_LT(d, 1e-7 * m) << s.name;
  }
}
