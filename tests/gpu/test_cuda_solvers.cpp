// Each pressure solver on the CUDA backend against the same solver on the CPU backend:
// multigrid (V and F), pcg with each preconditioner, fft, on problems with walls,
// outflow sides, periodic sides and an obstacle, in double and float. Skipped without
// a CUDA device.
#include <gtest/gtest.h>

#include <cmath>

#include "../unit/solver_test_problems.hpp"
#include "linalg/poisson_run.hpp"
#include "sim/solver.hpp"

using namespace flowlua;
using namespace flowlua::testing;

namespace {

// Max difference of the two solutions relative to the solution's size (means removed
// for singular problems), and both reports.
void compare(const Manufactured& m, int n, PressureControl c, Precision prec, double rel) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  Built b = build(m, n);
  PoissonRun cpu = run_poisson(BackendChoice::Cpu, prec, c, b.problem, b.rhs);
  PoissonRun gpu = run_poisson(BackendChoice::Cuda, prec, c, b.problem, b.rhs);
  const Grid& g = b.grid;
  double mc = 0, mg = 0;
  long cells = 0;
  auto fluid = [&](std::size_t k) { return is_fluid(b.problem.flags[k]); };
  if (b.singular)
    for (std::size_t k = 0; k < g.size(); ++k)
      if (fluid(k)) { mc += cpu.p[k]; mg += gpu.p[k]; ++cells; }
  if (cells) { mc /= cells; mg /= cells; }
  double diff = 0, size = 0;
  for (std::size_t k = 0; k < g.size(); ++k)
    if (fluid(k)) {
      diff = std::max(diff, std::abs((cpu.p[k] - mc) - (gpu.p[k] - mg)));
      size = std::max(size, std::abs(cpu.p[k] - mc));
    }
  std::printf("  %-40s %-6s cpu %d it res %.2e | cuda %d it res %.2e | max diff / max |p| %.2e\n", m.name.c_str(),
              precision_name(prec), cpu.report.iterations, cpu.report.residual, gpu.report.iterations,
              gpu.report.residual, diff / size);
  EXPECT_TRUE(gpu.report.converged) << gpu.solver;
  EXPECT_LE(gpu.report.iterations, cpu.report.iterations + 2) << gpu.solver;
  EXPECT_LE(diff / size, rel) << gpu.solver;
}

PressureControl ctl(PressureSolverKind s, double tol, PreconditionerKind pre = PreconditionerKind::Multigrid,
                    MultigridCycle cycle = MultigridCycle::V) {
  PressureControl c = control(s, tol);
  c.preconditioner = pre;
  c.cycle = cycle;
  return c;
}

}  // namespace

// Double: the same arithmetic in another order; solved to 1e-10 the solutions agree
// to 1e-9 of their size.
TEST(CudaSolvers, MultigridDouble) {
  for (auto cy : {MultigridCycle::V, MultigridCycle::F})
    for (const auto& m : {walls(), mixed_periodic_wall_outflow(), wall_left_outflow_right(), walls_with_block()})
      compare(m, 128, ctl(PressureSolverKind::Multigrid, 1e-10, PreconditionerKind::Multigrid, cy), Precision::Double, 1e-9);
}
TEST(CudaSolvers, PcgDouble) {
  for (auto pre : {PreconditionerKind::Jacobi, PreconditionerKind::Multigrid})
    for (const auto& m : {walls(), periodic_x_with_block(), wall_left_outflow_right()})
      compare(m, 128, ctl(PressureSolverKind::PreconditionedCG, 1e-10, pre), Precision::Double, 1e-9);
  for (const auto& m : {walls(), walls_with_block(), periodic_x_outflow_y()})
    compare(m, 128, ctl(PressureSolverKind::PreconditionedCG, 1e-10, PreconditionerKind::FFT), Precision::Double, 1e-9);
}
TEST(CudaSolvers, FftDouble) {
  for (const auto& m : {walls(), outflow_all(), periodic_both(), walls_x_outflow_y(), periodic_x_outflow_y()}) {
    compare(m, 128, ctl(PressureSolverKind::FFT, 1e-10), Precision::Double, 1e-11);
    compare(m, 96, ctl(PressureSolverKind::FFT, 1e-10), Precision::Double, 1e-11);  // not a power of 2
  }
}
// Float: rounding of 6e-8 per operation, amplified by the solve; tolerances above the
// float floor at 64^2 (see test_scalable_solvers.cpp).
TEST(CudaSolvers, Float) {
  for (const auto& m : {walls(), wall_left_outflow_right(), walls_with_block()}) {
    compare(m, 64, ctl(PressureSolverKind::Multigrid, 2e-4), Precision::Float, 1e-4);
    compare(m, 64, ctl(PressureSolverKind::PreconditionedCG, 2e-4), Precision::Float, 1e-4);
  }
  for (const auto& m : {walls(), periodic_both(), periodic_x_outflow_y()})
    compare(m, 64, ctl(PressureSolverKind::FFT, 2e-4), Precision::Float, 1e-5);
}
