// Immersed bodies on CUDA against the CPU (the same point functions: the momentum of
// the faces next to and inside a body, the cut-cell right-hand side, and the staircase faces of a
// turning body): a cylinder in a channel on a grid whose sizes are not multiples of
// the CUDA block, and a turning cylinder as cells. Forces (a host-side balance of the
// downloaded fields) must agree too. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/immersed.hpp"
#include "models/projection/projection_config.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

// The Schafer-Turek channel at Re = 100 with the cylinder off-centre; the cells
// inside the circle are the staircase mask.
ProjectionConfig cylinder(int ny, double omega) {
  ProjectionConfig c;
  const double H = 0.41, L = 1.1, xc = 0.2, yc = 0.2, r = 0.05;
  const int nx = int(ny * L / H + 0.5);
  c.grid = Grid::make(nx, ny, L, H);
  c.nu = 1e-3;
  for (Side s : kSides) {
    const int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    c.boundaries[int(s)] = SideCondition{BoundaryKind::Dirichlet, "wall", std::vector<double>(n, 0.0),
                                         std::vector<double>(n, 0.0)};
  }
  for (int j = 1; j <= ny; ++j) {
    const double y = c.grid.yc(j);
    c.boundaries[0].normal[j - 1] = 4 * 1.5 * y * (H - y) / (H * H);
  }
  c.boundaries[1] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  ImmersedBody b;
  b.phi = [=](double x, double y) { return std::hypot(x - xc, y - yc) - r; };
  b.motion = RigidMotion{xc, yc, omega};
  c.immersed = build_immersed_geometry(c.grid, {b});
  c.solid.assign(std::size_t(nx) * ny, 0);
  c.obstacle_id.assign(std::size_t(nx) * ny, -1);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i)
      if (b.phi(c.grid.xc(i), c.grid.yc(j)) < 0) {
        c.solid[std::size_t(i - 1) + std::size_t(j - 1) * nx] = 1;
        c.obstacle_id[std::size_t(i - 1) + std::size_t(j - 1) * nx] = 0;
      }
  c.obstacle_xc = {xc};
  c.obstacle_yc = {yc};
  c.u0.assign(c.grid.size(), 0.0);
  for (int j = 0; j <= ny + 1; ++j)
    for (int i = 0; i <= nx + 1; ++i) {
      const double y = std::clamp(c.grid.yc(j), 0.0, H);
      c.u0[c.grid.at(i, j)] = 4 * 1.5 * y * (H - y) / (H * H);
    }
  c.pressure.solver = PressureSolverKind::RedBlackSOR;
  c.pressure.tol = 1e-8;
  c.pressure.max_iter = 5000;
  c.pressure.omega = 1.8;
  return c;
}

double max_rel_diff(Solver& a, Solver& b) {
  double worst = 0;
  for (const char* f : {"u", "v", "p"}) {
    FieldSnapshot fa = a.field(f), fb = b.field(f);
    double m = 0, scale = 1e-30;
    for (std::size_t k = 0; k < fa.values.size(); ++k) {
      m = std::max(m, std::abs(fa.values[k] - fb.values[k]));
      scale = std::max(scale, std::abs(fa.values[k]));
    }
    worst = std::max(worst, m / scale);
  }
  return worst;
}

void backends_agree(ProjectionConfig c, const std::string& bodies, Precision prec, double tol) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  c.precision = prec;
  c.kernels["bodies"] = bodies;
  c.backend = BackendChoice::Cpu;
  auto cpu = make_projection_solver(c);
  c.backend = BackendChoice::Cuda;
  auto gpu = make_projection_solver(c);
  ASSERT_NE(gpu->plan().find(bodies + " (forced)"), std::string::npos) << gpu->plan();
  for (int k = 0; k < 40; ++k) {
    cpu->step();
    gpu->step();
  }
  EXPECT_LE(max_rel_diff(*cpu, *gpu), tol) << bodies;
  const Forces a = cpu->forces(0), b = gpu->forces(0);
  const double scale = std::hypot(a.fx, a.fy);
  EXPECT_NEAR(a.fx, b.fx, tol * 100 * scale);
  EXPECT_NEAR(a.fy, b.fy, tol * 100 * scale);
  EXPECT_NEAR(a.moment, b.moment, tol * 100 * scale * 0.1);
  EXPECT_STREQ(a.method, b.method);
}

}  // namespace

TEST(CudaImmersed, CylinderDouble) { backends_agree(cylinder(45, 0.0), "immersed", Precision::Double, 1e-9); }
TEST(CudaImmersed, TurningCylinderDouble) { backends_agree(cylinder(45, 20.0), "immersed", Precision::Double, 1e-9); }
TEST(CudaImmersed, TurningStaircaseDouble) {
  backends_agree(cylinder(45, 20.0), "staircase", Precision::Double, 1e-9);
}
TEST(CudaImmersed, CylinderFloat) { backends_agree(cylinder(45, 0.0), "immersed", Precision::Float, 1e-3); }
