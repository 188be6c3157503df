// The CUDA backend against the CPU backend, cell by cell, on cases that exercise
// every kernel: walls and a moving lid, inflow/outflow with an obstacle, periodic
// sides, both pressure solvers, both precisions. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "models/projection/projection_config.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

ProjectionConfig base(int nx, int ny, double lx, double ly) {
  ProjectionConfig c;
  c.grid = Grid::make(nx, ny, lx, ly);
  c.nu = 0.01;
  for (Side s : kSides) {
    int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    c.boundaries[int(s)] = SideCondition{BoundaryKind::Dirichlet, "wall", std::vector<double>(n, 0.0),
                                         std::vector<double>(n, 0.0)};
  }
  c.pressure.tol = 1e-6;
  return c;
}

ProjectionConfig cavity() {
  ProjectionConfig c = base(48, 40, 1.0, 1.0);
  c.boundaries[int(Side::Top)].tangential.assign(48, 1.0);
  return c;
}

ProjectionConfig channel_with_block() {
  ProjectionConfig c = base(96, 24, 4.0, 1.0);
  for (int j = 1; j <= 24; ++j) {
    double y = c.grid.yc(j);
    c.boundaries[0].normal[j - 1] = 6 * y * (1 - y);
  }
  c.boundaries[1] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  c.solid.assign(96 * 24, 0);
  c.obstacle_id.assign(96 * 24, -1);
  for (int j = 9; j <= 14; ++j)
    for (int i = 20; i <= 25; ++i) {
      c.solid[(i - 1) + (j - 1) * 96] = 1;
      c.obstacle_id[(i - 1) + (j - 1) * 96] = 0;
    }
  return c;
}

ProjectionConfig periodic_shear() {
  ProjectionConfig c = base(64, 32, 2.0, 1.0);
  c.boundaries[0] = c.boundaries[1] = SideCondition{BoundaryKind::Periodic, "periodic", {}, {}};
  c.boundaries[2] = SideCondition{BoundaryKind::Slip, "slip", {}, {}};
  c.boundaries[3].tangential.assign(64, 1.0);
  c.gx = 0.5;
  return c;
}

double max_diff(Solver& a, Solver& b, const std::string& field) {
  FieldSnapshot fa = a.field(field), fb = b.field(field);
  double m = 0;
  for (std::size_t k = 0; k < fa.values.size(); ++k) m = std::max(m, std::abs(fa.values[k] - fb.values[k]));
  return m;
}

void compare(ProjectionConfig c, Precision prec, PressureSolverKind solver, double tol) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  c.precision = prec;
  c.pressure.solver = solver;
  c.backend = BackendChoice::Cpu;
  auto cpu = make_projection_solver(c);
  c.backend = BackendChoice::Cuda;
  auto gpu = make_projection_solver(c);
  ASSERT_EQ(gpu->backend_name(), "cuda");
  for (int k = 0; k < 60; ++k) {
    cpu->step();
    gpu->step();
  }
  EXPECT_NEAR(cpu->time(), gpu->time(), 1e-12 * cpu->time() + (prec == Precision::Float ? 1e-6 : 0));
  const double scale = cpu->field("speed").max();
  for (const char* f : {"u", "v", "p", "vorticity"}) {
    double d = max_diff(*cpu, *gpu, f);
    double ref = std::max(1.0, std::abs(cpu->field(f).max()));
    EXPECT_LE(d / ref, tol) << f << " differs by " << d << " (speed scale " << scale << ")";
  }
}

}  // namespace

// Double: the same arithmetic in a different order (FMA contraction, reduction
// order in CG), so the fields agree to round-off amplified by the solver.
TEST(CudaBackend, CavityDoubleSOR) { compare(cavity(), Precision::Double, PressureSolverKind::RedBlackSOR, 1e-9); }
TEST(CudaBackend, CavityDoubleCG) { compare(cavity(), Precision::Double, PressureSolverKind::ConjugateGradient, 1e-9); }
TEST(CudaBackend, ChannelObstacleDoubleSOR) {
  compare(channel_with_block(), Precision::Double, PressureSolverKind::RedBlackSOR, 1e-9);
}
TEST(CudaBackend, PeriodicDoubleCG) {
  compare(periodic_shear(), Precision::Double, PressureSolverKind::ConjugateGradient, 1e-9);
}
// Float: both backends carry float rounding (~1e-7 per operation) through 60 steps
// and an iterative solve stopped at tol 1e-6; 1e-4 of the field scale bounds that.
TEST(CudaBackend, CavityFloatSOR) { compare(cavity(), Precision::Float, PressureSolverKind::RedBlackSOR, 1e-4); }
TEST(CudaBackend, ChannelObstacleFloatCG) {
  compare(channel_with_block(), Precision::Float, PressureSolverKind::ConjugateGradient, 1e-4);
}
