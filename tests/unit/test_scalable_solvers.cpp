// Multigrid, preconditioned CG and the FFT solve against manufactured solutions:
// second-order convergence (error ratio about 4 per halving of h) for every kind of
// side and with obstacles, in double and float; multigrid iteration counts that do
// not grow with the grid; a symmetric multigrid preconditioner; the clear errors
// for requests that cannot work.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "linalg/fft_poisson_makhoul.hpp"
#include "solver_test_problems.hpp"

using namespace flowlua;
using namespace flowlua::testing;

namespace {

struct Variant {
  const char* name;
  PressureControl control;
};

PressureControl with(PressureSolverKind s, double tol, PreconditionerKind m = PreconditionerKind::Multigrid,
                     MultigridCycle cycle = MultigridCycle::V) {
  PressureControl c = control(s, tol);
  c.preconditioner = m;
  c.cycle = cycle;
  return c;
}

// Errors at n, 2n, 4n must fall by about 4 each time (order > 1.85), and the solve
// must reach its tolerance.
template <class Real>
void expect_second_order(const Manufactured& m, const PressureControl& c, int n0) {
  double e[3];
  for (int k = 0; k < 3; ++k) {
    Outcome o = solve<Real>(m, n0 << k, c);
    EXPECT_TRUE(o.report.converged) << m.name << " n = " << (n0 << k) << " residual " << o.report.residual;
    e[k] = o.error;
  }
  std::printf("  %-38s errors %.3e %.3e %.3e  ratios %.2f %.2f\n", m.name.c_str(), e[0], e[1], e[2], e[0] / e[1],
              e[1] / e[2]);
  EXPECT_GT(std::log2(e[0] / e[1]), 1.85) << m.name << ": " << e[0] << " " << e[1];
  EXPECT_GT(std::log2(e[1] / e[2]), 1.85) << m.name << ": " << e[1] << " " << e[2];
}

const std::vector<Manufactured> kAllSides = {walls(), outflow_all(), periodic_both(), mixed_periodic_wall_outflow(),
                                             wall_left_outflow_right(), walls_x_outflow_y()};
const std::vector<Manufactured> kFftSides = {walls(), outflow_all(), periodic_both(), walls_x_outflow_y(),
                                             periodic_x_outflow_y()};
const std::vector<Manufactured> kObstacles = {walls_with_block(), periodic_x_with_block()};

}  // namespace

TEST(Multigrid, SecondOrderEverySideAndObstaclesDouble) {
  for (auto cycle : {MultigridCycle::V, MultigridCycle::F}) {
    PressureControl c = with(PressureSolverKind::Multigrid, 1e-10, PreconditionerKind::Multigrid, cycle);
    for (const auto& m : kAllSides) expect_second_order<double>(m, c, 16);
    for (const auto& m : kObstacles) expect_second_order<double>(m, c, 32);
  }
}

TEST(PreconditionedCG, SecondOrderEverySideAndObstaclesDouble) {
  for (auto pre : {PreconditionerKind::Multigrid, PreconditionerKind::Jacobi}) {
    PressureControl c = with(PressureSolverKind::PreconditionedCG, 1e-10, pre);
    for (const auto& m : kAllSides) expect_second_order<double>(m, c, 16);
    for (const auto& m : kObstacles) expect_second_order<double>(m, c, 32);
  }
  // The FFT preconditioner: exact without obstacles, the box inverse with them.
  PressureControl c = with(PressureSolverKind::PreconditionedCG, 1e-10, PreconditionerKind::FFT);
  for (const auto& m : kFftSides) expect_second_order<double>(m, c, 16);
  for (const auto& m : kObstacles) expect_second_order<double>(m, c, 32);
}

TEST(FftPoisson, SecondOrderEveryTransformableSideDouble) {
  PressureControl c = with(PressureSolverKind::FFT, 1e-10);
  for (const auto& m : kFftSides) expect_second_order<double>(m, c, 16);
}

// In float the true residual cannot fall below about 4 eps / (h k)^2 relative (eps =
// 6e-8, k the field's wavenumber): 1e-5 at 32^2 for these fields, 5e-5 at 64^2. The
// tolerances sit above that floor (every solver reports the true residual).
TEST(ScalableSolvers, SecondOrderInFloat) {
  for (const auto& m : {walls(), mixed_periodic_wall_outflow()}) {
    expect_second_order<float>(m, with(PressureSolverKind::Multigrid, 1e-4), 8);
    expect_second_order<float>(m, with(PressureSolverKind::PreconditionedCG, 1e-4), 8);
  }
  expect_second_order<float>(walls_with_block(), with(PressureSolverKind::PreconditionedCG, 1e-4), 16);
  for (const auto& m : {walls(), periodic_x_outflow_y()})
    expect_second_order<float>(m, with(PressureSolverKind::FFT, 1e-4), 8);
}

// The FFT solve is exact up to rounding: its residual is at rounding level.
TEST(FftPoisson, ResidualAtRoundingLevel) {
  Outcome d = solve<double>(walls(), 64, with(PressureSolverKind::FFT, 1e-11));
  Outcome f = solve<float>(walls(), 64, with(PressureSolverKind::FFT, 1e-4));
  EXPECT_EQ(d.report.iterations, 1);
  EXPECT_LT(d.report.residual, 1e-11);
  EXPECT_LT(f.report.residual, 1e-4);
}

// Multigrid cycles to a relative residual of 1e-8 from 32^2 to 256^2 (the issue's
// target; the benchmark takes it to 4096^2).
TEST(Multigrid, IterationsDoNotGrowWithTheGrid) {
  for (auto cycle : {MultigridCycle::V, MultigridCycle::F})
    for (const auto& m : {walls(), mixed_periodic_wall_outflow(), wall_left_outflow_right()}) {
      int first = 0;
      std::printf("  %s-cycles, %-38s", cycle == MultigridCycle::V ? "V" : "F", m.name.c_str());
      for (int n = 32; n <= 256; n *= 2) {
        Outcome o = solve<double>(m, n, with(PressureSolverKind::Multigrid, 1e-8, PreconditionerKind::Multigrid, cycle));
        std::printf(" %d^2: %d", n, o.report.iterations);
        EXPECT_TRUE(o.report.converged);
        if (!first) first = o.report.iterations;
        EXPECT_LE(o.report.iterations, first + 1) << m.name << " n = " << n;
        EXPECT_LE(o.report.iterations, 12) << m.name << " n = " << n;
      }
      std::printf("\n");
    }
}

// With an obstacle (and its coarse-level approximation), multigrid-preconditioned CG
// still needs a grid-independent number of iterations.
TEST(PreconditionedCG, MultigridIterationsGridIndependentWithObstacles) {
  for (const auto& m : kObstacles) {
    int first = 0;
    std::printf("  MG-PCG, %-38s", m.name.c_str());
    for (int n = 32; n <= 256; n *= 2) {
      Outcome o = solve<double>(m, n, with(PressureSolverKind::PreconditionedCG, 1e-8));
      std::printf(" %d^2: %d", n, o.report.iterations);
      EXPECT_TRUE(o.report.converged);
      if (!first) first = o.report.iterations;
      EXPECT_LE(o.report.iterations, first + 2) << m.name << " n = " << n;
    }
    std::printf("\n");
  }
}

// CG needs a symmetric preconditioner: <M a, b> = <a, M b> for the V-cycle, here with
// an obstacle, periodic x and an outflow side (every transfer rule).
TEST(Multigrid, PreconditionerIsSymmetric) {
  Manufactured m = periodic_x_with_block();
  m.top = kOut;
  m.right = m.left = kPer;
  Built b = build(m, 64);
  const Grid& g = b.grid;
  PressureControl c = with(PressureSolverKind::PreconditionedCG, 1e-8);
  MultigridPreconditioner<CpuExec, double> mg(c, b.problem);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(g.size(), 0.0), bb(g.size(), 0.0), ma(g.size()), mb(g.size());
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i)
      if (is_fluid(b.problem.flags[g.at(i, j)])) {
        a[g.at(i, j)] = u(rng);
        bb[g.at(i, j)] = u(rng);
      }
  PoissonView<double> v{nullptr, nullptr, b.problem.flags.data(), b.problem.nb, 1 / (g.dx * g.dx), 1 / (g.dy * g.dy)};
  double a_ma = mg.apply(v, a.data(), ma.data());
  double b_mb = mg.apply(v, bb.data(), mb.data());
  double ma_b = 0, a_mb = 0;
  for (std::size_t k = 0; k < g.size(); ++k) {
    if (!is_fluid(b.problem.flags[k])) continue;
    ma_b += ma[k] * bb[k];
    a_mb += a[k] * mb[k];
  }
  EXPECT_NEAR(ma_b, a_mb, 1e-10 * std::abs(ma_b));
  EXPECT_LT(a_ma, 0);  // approximates lap^-1: negative definite
  EXPECT_LT(b_mb, 0);
}

// The CUDA backend's transform pipeline (real FFTs + Makhoul kernels), run here on the
// CPU with FFTW's real FFTs, against FFTW's real-to-real solve: every axis pair, even
// and odd lengths.
TEST(FftPoisson, MakhoulPipelineMatchesFftwRealToReal) {
  const FftAxis kinds[3] = {FftAxis::Periodic, FftAxis::Cosine, FftAxis::Sine};
  for (auto [nx, ny] : {std::pair{12, 10}, std::pair{9, 7}, std::pair{16, 5}})
    for (FftAxis ax : kinds)
      for (FftAxis ay : kinds) {
        FftShape s{nx, ny, 1.0 / nx, 0.7 / ny, ax, ay};
        auto ref = make_fft_core<CpuExec, double>(s);
        MakhoulFftPoisson<CpuExec, double> mk(s);
        std::mt19937 rng(nx * 31 + ny);
        std::uniform_real_distribution<double> u(-1, 1);
        Grid g = Grid::make(nx, ny, 1, 1);
        std::vector<double> f(g.size(), 0.0), p1(g.size(), 0.0), p2(g.size(), 0.0);
        double mean = 0;
        for (int j = 1; j <= ny; ++j)
          for (int i = 1; i <= nx; ++i) mean += (f[g.at(i, j)] = u(rng));
        mean /= double(nx) * ny;
        for (int j = 1; j <= ny; ++j)
          for (int i = 1; i <= nx; ++i) f[g.at(i, j)] -= mean;
        ref->solve(f.data(), p1.data());
        mk.solve(f.data(), p2.data());
        double diff = 0, size = 0;
        for (std::size_t k = 0; k < g.size(); ++k) {
          diff = std::max(diff, std::abs(p1[k] - p2[k]));
          size = std::max(size, std::abs(p1[k]));
        }
        EXPECT_LT(diff, 1e-12 * size) << nx << "x" << ny << " axes " << int(ax) << "," << int(ay);
        EXPECT_GT(size, 0.0);
      }
}

TEST(SolverFactory, FftRefusesObstaclesAndMixedSides) {
  auto message = [](const Manufactured& m, PressureControl c) -> std::string {
    Built b = build(m, 16);
    try {
      make_pressure_solver<CpuExec, double>(c, b.problem);
    } catch (const CaseError& e) {
      return e.what();
    }
    return "";
  };
  PressureControl fft = with(PressureSolverKind::FFT, 1e-8);
  EXPECT_NE(message(walls_with_block(), fft).find("obstacle"), std::string::npos);
  EXPECT_NE(message(wall_left_outflow_right(), fft).find("left and right"), std::string::npos);
  EXPECT_NE(message(mixed_periodic_wall_outflow(), fft).find("bottom and top"), std::string::npos);
  PressureControl pfft = with(PressureSolverKind::PreconditionedCG, 1e-8, PreconditionerKind::FFT);
  EXPECT_EQ(message(walls_with_block(), pfft), "");  // the box inverse is allowed with obstacles
  EXPECT_NE(message(wall_left_outflow_right(), pfft).find("left and right"), std::string::npos);
  PressureControl asym = with(PressureSolverKind::PreconditionedCG, 1e-8);
  asym.post_smooth = 1;
  EXPECT_NE(message(walls(), asym).find("pre_smooth = post_smooth"), std::string::npos);
}
