// Each pressure solver against manufactured solutions of lap p = f on the unit
// square: second-order convergence for Neumann walls, a Dirichlet (outflow) side
// and periodic sides, and the tolerance meaning a relative residual.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "linalg/solver_factory.hpp"

using namespace flowlua;

namespace {

const double kPi = 3.14159265358979323846;

struct Problem {
  BoundaryKind x_sides, right_side;
  std::function<double(double, double)> exact, lap;
};

Boundaries sides(BoundaryKind left, BoundaryKind right) {
  Boundaries b;
  b[0].kind = left;
  b[1].kind = right;
  b[2].kind = b[3].kind = BoundaryKind::Dirichlet;  // velocity walls: Neumann for p
  return b;
}

// Max error against the exact solution (means removed when the problem is singular).
double solve_error(const Problem& pr, PressureSolverKind kind, int n, SolveReport* rep_out = nullptr) {
  Grid g = Grid::make(n, n, 1.0, 1.0);
  Boundaries b = sides(pr.x_sides, pr.right_side);
  FlagReport fl = build_flags(g, b, {});
  std::vector<double> p(g.size(), 0.0), rhs(g.size(), 0.0);
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i) rhs[g.at(i, j)] = pr.lap(g.xc(i), g.yc(j));
  const bool singular = pr.right_side != BoundaryKind::Outflow;
  if (singular) {  // make the discrete problem consistent
    double m = 0;
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) m += rhs[g.at(i, j)];
    m /= double(n) * n;
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) rhs[g.at(i, j)] -= m;
  }
  PoissonView<double> v{p.data(), rhs.data(), fl.flags.data(),
                        Neighbours{n, n, pr.x_sides == BoundaryKind::Periodic, false}, 1.0 / (g.dx * g.dx),
                        1.0 / (g.dy * g.dy)};
  PressureControl c;
  c.solver = kind;
  c.tol = 1e-10;
  c.max_iter = 200000;
  c.omega = 1.9;
  auto solver = make_pressure_solver<CpuExec, double>(c, PoissonProblem{g, v.nb, fl.flags});
  SolveReport rep = solver->solve(v);
  if (rep_out) *rep_out = rep;
  double mp = 0, me = 0;
  if (singular) {
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        mp += p[g.at(i, j)];
        me += pr.exact(g.xc(i), g.yc(j));
      }
    mp /= double(n) * n;
    me /= double(n) * n;
  }
  double err = 0;
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i)
      err = std::max(err, std::abs((p[g.at(i, j)] - mp) - (pr.exact(g.xc(i), g.yc(j)) - me)));
  return err;
}

const Problem kNeumann{BoundaryKind::Dirichlet, BoundaryKind::Dirichlet,
                       [](double x, double y) { return std::cos(kPi * x) * std::cos(kPi * y); },
                       [](double x, double y) { return -2 * kPi * kPi * std::cos(kPi * x) * std::cos(kPi * y); }};
// p = 0 on the right face (outflow), dp/dn = 0 elsewhere.
const Problem kDirichletRight{BoundaryKind::Dirichlet, BoundaryKind::Outflow,
                              [](double x, double y) { return std::cos(kPi * x / 2) * std::cos(kPi * y); },
                              [](double x, double y) {
                                return -(kPi * kPi / 4 + kPi * kPi) * std::cos(kPi * x / 2) * std::cos(kPi * y);
                              }};
const Problem kPeriodic{BoundaryKind::Periodic, BoundaryKind::Periodic,
                        [](double x, double y) { return std::sin(2 * kPi * x) * std::cos(kPi * y); },
                        [](double x, double y) { return -5 * kPi * kPi * std::sin(2 * kPi * x) * std::cos(kPi * y); }};

void expect_second_order(const Problem& pr, PressureSolverKind kind) {
  double e16 = solve_error(pr, kind, 16), e32 = solve_error(pr, kind, 32), e64 = solve_error(pr, kind, 64);
  double order1 = std::log2(e16 / e32), order2 = std::log2(e32 / e64);
  EXPECT_GT(order1, 1.8) << "errors " << e16 << " " << e32;
  EXPECT_GT(order2, 1.9) << "errors " << e32 << " " << e64;
  EXPECT_LT(e64, 1e-3);
}

}  // namespace

TEST(RedBlackSOR, NeumannSecondOrder) { expect_second_order(kNeumann, PressureSolverKind::RedBlackSOR); }
TEST(RedBlackSOR, DirichletSideSecondOrder) { expect_second_order(kDirichletRight, PressureSolverKind::RedBlackSOR); }
TEST(RedBlackSOR, PeriodicSecondOrder) { expect_second_order(kPeriodic, PressureSolverKind::RedBlackSOR); }
TEST(ConjugateGradient, NeumannSecondOrder) { expect_second_order(kNeumann, PressureSolverKind::ConjugateGradient); }
TEST(ConjugateGradient, DirichletSideSecondOrder) {
  expect_second_order(kDirichletRight, PressureSolverKind::ConjugateGradient);
}
TEST(ConjugateGradient, PeriodicSecondOrder) { expect_second_order(kPeriodic, PressureSolverKind::ConjugateGradient); }

TEST(PressureSolvers, ReportRelativeResidualBelowTolerance) {
  for (auto kind : {PressureSolverKind::RedBlackSOR, PressureSolverKind::ConjugateGradient}) {
    SolveReport rep;
    solve_error(kNeumann, kind, 32, &rep);
    EXPECT_TRUE(rep.converged);
    EXPECT_LE(rep.residual, 1e-10);
    EXPECT_GT(rep.iterations, 10);  // it did iterate: the start (zero) is far from the answer
  }
}

TEST(PressureSolvers, CgNeedsFewerIterationsThanSorOn64) {
  SolveReport sor, cg;
  solve_error(kDirichletRight, PressureSolverKind::RedBlackSOR, 64, &sor);
  solve_error(kDirichletRight, PressureSolverKind::ConjugateGradient, 64, &cg);
  EXPECT_TRUE(sor.converged && cg.converged);
  EXPECT_LT(cg.iterations, 400);
}
