// Mixed-precision refinement (linalg/refinement.hpp) on the CUDA backend at 1024^2 and
// 4096^2: red-black SOR in float stalls above 1e-6 (issue 12: about 2e-2 at 1024^2);
// the refinement around the same float SOR reaches 1e-6, checked by a residual
// computed on the host in double; the time of one solve is printed beside the double
// SOR's and the stalled float's (the figures for docs/performance.md). Skipped
// without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "../unit/solver_test_problems.hpp"
#include "linalg/poisson_run.hpp"
#include "sim/solver.hpp"

using namespace flowlua;
using namespace flowlua::testing;

namespace {

PressureControl sor(double tol, int max_iter, int n) {
  PressureControl c;
  c.solver = PressureSolverKind::RedBlackSOR;
  c.omega = 2 / (1 + std::sin(kPi / n));
  c.tol = tol;
  c.max_iter = max_iter;
  c.check_every = 10;
  return c;
}

double relative_residual(const Built& b, const std::vector<double>& x) {
  const Grid& g = b.grid;
  const PoissonView<double> v{const_cast<double*>(x.data()), b.rhs.data(), b.problem.flags.data(), b.problem.nb,
                              1 / (g.dx * g.dx), 1 / (g.dy * g.dy)};
  double r2 = 0, b2 = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      if (!is_fluid(b.problem.flags[g.at(i, j)])) continue;
      const double r = b.rhs[g.at(i, j)] - apply_laplacian(v, x.data(), i, j);
      r2 += r * r;
      b2 += b.rhs[g.at(i, j)] * b.rhs[g.at(i, j)];
    }
  return std::sqrt(r2 / b2);
}

void refine_on_gpu(int n) {
  const Built b = build(outflow_all(), n);
  // Double SOR to 1e-6 sets the sweep budget; float gets four times as many.
  PoissonRun dbl = run_poisson(BackendChoice::Cuda, Precision::Double, sor(1e-6, 200000, n), b.problem, b.rhs, 1, -1);
  ASSERT_TRUE(dbl.report.converged);
  PoissonRun flt = run_poisson(BackendChoice::Cuda, Precision::Float, sor(1e-6, 4 * dbl.report.iterations, n),
                               b.problem, b.rhs, 0, 1);
  EXPECT_FALSE(flt.report.converged) << "float SOR reached 1e-6 at " << n << "^2: not a stalling case";
  PoissonRun mix = run_poisson_refined(BackendChoice::Cuda, sor(1e-2, 200000, n), 1e-6, 40, b.problem, b.rhs, 1, -1);
  EXPECT_TRUE(mix.report.converged) << "mixed residual " << mix.report.residual;
  const double res = relative_residual(b, mix.p);
  EXPECT_LE(res, 1e-6);
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < mix.p.size(); ++k) {
    diff = std::max(diff, std::abs(mix.p[k] - dbl.p[k]));
    scale = std::max(scale, std::abs(dbl.p[k]));
  }
  EXPECT_LT(diff, 1e-4 * scale);
  std::printf("refinement %d^2 (CUDA): double SOR %d sweeps %.2f ms (residual %.2e); float SOR %d sweeps, stalled at "
              "%.2e, %.2f ms; mixed %d float sweeps, residual %.2e (host check %.2e), %.2f ms = %.2f x double\n",
              n, dbl.report.iterations, dbl.timing.median_ms, dbl.report.residual, flt.report.iterations,
              flt.report.residual, flt.timing.median_ms, mix.report.iterations, mix.report.residual, res,
              mix.timing.median_ms, mix.timing.median_ms / dbl.timing.median_ms);
}

}  // namespace

TEST(CudaRefinement, FloatReaches1e6At1024) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  refine_on_gpu(1024);
}

TEST(CudaRefinement, FloatReaches1e6At4096) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  refine_on_gpu(4096);
}
