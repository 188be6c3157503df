// Red-black SOR with its convergence decided in backend memory (RedBlackSOR::
// solve_device, linalg/sor_device.hpp) against solve(), which reads its norms back:
// on the CPU backend the same sweeps, the same iterate returned and the same report,
// bit for bit, whether the solve converges at a check, runs into max_iter (a multiple
// of check_every or not, below it or not), starts from a zero right-hand side or meets
// a NaN. The fused (CUDA) variant is compared on the device: tests/gpu/
// test_cuda_device_step.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "linalg/rbsor.hpp"
#include "solver_test_problems.hpp"

using namespace flowlua;
using namespace flowlua::testing;

namespace {

template <class Real>
void same_solve(const Manufactured& m, int n, const PressureControl& c, const std::string& what,
                double rhs_scale = 1.0, bool nan = false) {
  Built b = build(m, n);
  const Grid& g = b.grid;
  std::vector<Real> rhs(g.size());
  for (std::size_t k = 0; k < rhs.size(); ++k) rhs[k] = Real(b.rhs[k] * rhs_scale);
  if (nan) rhs[g.at(n / 2, n / 3)] = std::numeric_limits<Real>::quiet_NaN();
  // A start that is not zero (p from the last step, as in the projection model).
  std::vector<Real> p1(g.size());
  for (std::size_t k = 0; k < p1.size(); ++k) p1[k] = Real(0.01 * std::sin(0.37 * double(k)));
  std::vector<Real> p2 = p1;
  auto view = [&](std::vector<Real>& p) {
    return PoissonView<Real>{p.data(), rhs.data(), b.problem.flags.data(), b.problem.nb, Real(1 / (g.dx * g.dx)),
                             Real(1 / (g.dy * g.dy))};
  };
  RedBlackSOR<CpuExec, Real> host(c, b.problem), dev(c, b.problem);
  ASSERT_TRUE(dev.device_stop());
  std::vector<double> slots(sor_slot::kCount, -7.0);
  // Two solves in a row: the second starts from the first's result (slots reused).
  for (int round = 0; round < 2; ++round) {
    const SolveReport a = host.solve(view(p1));
    dev.solve_device(view(p2), slots.data());
    const SolveReport d = RedBlackSOR<CpuExec, Real>::report(slots.data(), c.tol);
    EXPECT_EQ(a.iterations, d.iterations) << what << ", round " << round;
    if (nan) {
      EXPECT_TRUE(std::isnan(a.residual) && std::isnan(d.residual)) << what << ": " << a.residual << " " << d.residual;
    } else {
      EXPECT_EQ(0, std::memcmp(&a.residual, &d.residual, sizeof(double)))
          << what << ", round " << round << ": " << a.residual << " vs " << d.residual;
      EXPECT_EQ(0, std::memcmp(p1.data(), p2.data(), p1.size() * sizeof(Real))) << what << ", round " << round;
    }
    EXPECT_EQ(a.converged, d.converged) << what;
  }
}

PressureControl control(double tol, int max_iter, int check_every) {
  PressureControl c;
  c.solver = PressureSolverKind::RedBlackSOR;
  c.omega = 1.7;
  c.tol = tol;
  c.max_iter = max_iter;
  c.check_every = check_every;
  return c;
}

}  // namespace

TEST(SorDeviceStop, ConvergesAtACheckLikeSolve) {
  same_solve<double>(walls(), 24, control(1e-6, 2000, 5), "walls, converges");
  same_solve<double>(outflow_all(), 20, control(1e-8, 2000, 3), "outflow, check_every 3");
  same_solve<float>(walls_x_outflow_y(), 24, control(1e-4, 2000, 5), "float, walls x outflow y");
}

TEST(SorDeviceStop, ObstacleAndPeriodicSides) {
  Manufactured m = walls();
  m.ox0 = 0.25, m.ox1 = 0.5, m.oy0 = 0.25, m.oy1 = 0.75;
  same_solve<double>(m, 24, control(1e-6, 2000, 5), "walls with a block");
  same_solve<double>(periodic_both(), 16, control(1e-6, 2000, 4), "periodic");
}

TEST(SorDeviceStop, MaxIterLikeSolve) {
  same_solve<double>(walls(), 24, control(1e-14, 37, 5), "max_iter 37, check_every 5");
  same_solve<double>(walls(), 24, control(1e-14, 40, 5), "max_iter 40, check_every 5");
  same_solve<double>(walls(), 24, control(1e-14, 2, 5), "max_iter 2 < check_every");
  same_solve<double>(walls(), 24, control(1e-14, 5, 5), "max_iter 5 = check_every (the harness)");
  same_solve<double>(walls(), 24, control(1e-14, 9, 1), "check_every 1");
}

TEST(SorDeviceStop, ZeroRightHandSideGivesZero) {
  same_solve<double>(outflow_all(), 16, control(1e-6, 2000, 5), "rhs 0", 0.0);
}

TEST(SorDeviceStop, NanResidualLikeSolve) {
  same_solve<double>(walls(), 16, control(1e-6, 50, 5), "NaN in rhs", 1.0, true);
}
