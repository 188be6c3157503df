// The projection model through the Solver interface on the CPU: the velocity is
// divergence-free after each step, mass is conserved through a channel, float and
// double agree, and a blow-up is reported with its step and cell.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "models/projection/projection_config.hpp"
#include "sim/solver.hpp"
#include "projection_test_cases.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int n, PressureSolverKind solver) {
  return test::lid_cavity(n, solver, 1e-8, 100000);
}

// Channel with a parabolic inflow on the left, outflow on the right and a block.
ProjectionConfig channel(int nx, int ny, bool block) {
  ProjectionConfig c;
  c.grid = Grid::make(nx, ny, 4.0, 1.0);
  c.nu = 0.02;
  for (Side s : kSides) {
    auto& b = c.boundaries[int(s)];
    int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    b.kind = BoundaryKind::Dirichlet;
    b.normal.assign(n, 0.0);
    b.tangential.assign(n, 0.0);
  }
  for (int j = 1; j <= ny; ++j) {
    double y = c.grid.yc(j);
    c.boundaries[0].normal[j - 1] = 4 * y * (1 - y);
  }
  c.boundaries[1] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  if (block) {
    c.solid.assign(std::size_t(nx) * ny, 0);
    for (int j = ny / 3; j <= ny / 2; ++j)
      for (int i = nx / 5; i <= nx / 5 + 3; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;
  }
  c.backend = BackendChoice::Cpu;
  c.pressure.tol = 1e-9;
  c.pressure.max_iter = 100000;
  return c;
}

double flux_through(const FieldSnapshot& u, int i_face_cells) {
  // Flux through the vertical line between cells i and i+1 using cell-centred u is
  // not exact; use the mean of the two neighbouring columns.
  double q = 0;
  for (int j = 1; j <= u.ny(); ++j) q += 0.5 * (u.get(i_face_cells, j) + u.get(i_face_cells + 1, j)) * u.grid.dy;
  return q;
}

}  // namespace

TEST(ProjectionSolver, VelocityIsDivergenceFreeAfterEachStep) {
  for (auto kind : {PressureSolverKind::RedBlackSOR, PressureSolverKind::ConjugateGradient}) {
    auto s = make_projection_solver(cavity(24, kind));
    for (int k = 0; k < 20; ++k) s->step();
    Diagnostics d = s->diagnostics();
    EXPECT_LT(d.get("max_divergence"), 1e-6) << "solver " << int(kind);
    EXPECT_GT(d.get("max_speed"), 0.1);
    EXPECT_LE(d.get("pressure_residual"), 1e-8);
  }
}

TEST(ProjectionSolver, ChannelConservesMassAroundAnObstacle) {
  ProjectionConfig c = channel(64, 16, true);
  c.pressure.solver = PressureSolverKind::ConjugateGradient;
  auto s = make_projection_solver(c);
  for (int k = 0; k < 200; ++k) s->step();
  EXPECT_LT(s->diagnostics().get("max_divergence"), 1e-6);
  FieldSnapshot u = s->field("u");
  const double inflow = 2.0 / 3.0;  // integral of 4 y (1 - y) over [0, 1]
  for (int i : {4, 20, 40, 63}) EXPECT_NEAR(flux_through(u, i), inflow, 2e-3) << "column " << i;
}

TEST(ProjectionSolver, FloatAgreesWithDouble) {
  ProjectionConfig c = cavity(32, PressureSolverKind::RedBlackSOR);
  c.pressure.tol = 1e-5;
  auto d = make_projection_solver(c);
  c.precision = Precision::Float;
  auto f = make_projection_solver(c);
  for (int k = 0; k < 100; ++k) {
    d->step();
    f->step();
  }
  FieldSnapshot ud = d->field("u"), uf = f->field("u");
  double err = 0;
  for (std::size_t k = 0; k < ud.values.size(); ++k) err = std::max(err, std::abs(ud.values[k] - uf.values[k]));
  EXPECT_LT(err, 1e-4);
  EXPECT_GT(err, 0.0);  // they really ran in different precisions
}

TEST(ProjectionSolver, StreamFunctionIsZeroOnClosedWalls) {
  auto s = make_projection_solver(cavity(16, PressureSolverKind::ConjugateGradient));
  for (int k = 0; k < 30; ++k) s->step();
  FieldSnapshot psi = s->field("stream");
  EXPECT_LT(psi.min(), -1e-3);  // the primary vortex turns clockwise
  // Corner values average psi over a cell: near the walls psi is small.
  EXPECT_LT(std::abs(psi.get(1, 1)), 0.1 * std::abs(psi.min()));
}

TEST(ProjectionSolver, BlowUpNamesStepAndCell) {
  ProjectionConfig c = cavity(16, PressureSolverKind::RedBlackSOR);
  c.time.dt = 5.0;  // far beyond every stability limit
  c.nu = 1e-4;
  auto s = make_projection_solver(c);
  try {
    for (int k = 0; k < 200; ++k) s->step();
    FAIL() << "no blow-up detected";
  } catch (const BlowUp& b) {
    EXPECT_GT(b.step, 0);
    EXPECT_NE(std::string(b.what()).find("step"), std::string::npos);
  }
}

TEST(ProjectionSolver, RejectsInflowWithNowhereToGo) {
  ProjectionConfig c = channel(16, 8, false);
  c.boundaries[1] = c.boundaries[3];  // right side becomes a wall
  EXPECT_THROW(make_projection_solver(c), CaseError);
}

// The kernel variants the plan picks for obstacle-free domains (flags computed from
// the position, central differences without the donor-cell terms) are the general
// variants with less memory traffic: on the CPU they must give the same bits.
TEST(ProjectionSolver, KernelVariantsAgreeBitForBit) {
  for (int which = 0; which < 2; ++which) {
    ProjectionConfig c = which == 0 ? cavity(24, PressureSolverKind::RedBlackSOR) : channel(40, 12, false);
    auto chosen = make_projection_solver(c);
    EXPECT_NE(chosen->plan().find("central_open"), std::string::npos) << chosen->plan();
    EXPECT_NE(chosen->plan().find("rbsor_open"), std::string::npos) << chosen->plan();
    c.kernels["general"] = "true";
    auto general = make_projection_solver(c);
    EXPECT_NE(general->plan().find("hybrid (forced)"), std::string::npos) << general->plan();
    EXPECT_NE(general->plan().find("flagged (forced)"), std::string::npos) << general->plan();
    for (int k = 0; k < 40; ++k) {
      chosen->step();
      general->step();
    }
    for (const char* f : {"u", "v", "p"}) {
      FieldSnapshot a = chosen->field(f), b = general->field(f);
      ASSERT_EQ(a.values.size(), b.values.size());
      for (std::size_t k = 0; k < a.values.size(); ++k)
        ASSERT_EQ(a.values[k], b.values[k]) << f << " differs at " << k << " (case " << which << ")";
    }
  }
}

TEST(ProjectionSolver, ObstaclesTakeTheFlaggedVariants) {
  auto s = make_projection_solver(channel(40, 12, true));
  const std::string plan = s->plan();
  for (const char* line : {"sides_and_obstacles", "momentum       central:", "rhs            flagged",
                           "pressure       flagged", "correction     flagged"})
    EXPECT_NE(plan.find(line), std::string::npos) << line << " not in\n" << plan;
}
