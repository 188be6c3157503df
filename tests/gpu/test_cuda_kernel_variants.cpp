// The CUDA kernel variants against each other and against the CPU: the fused
// red-black sweep (both colours and the residual in one launch, ping-pong buffers)
// and its shared-memory tile version (rbsor_tile*) must compute what the two-colour
// sweep computes, on grids whose sizes are not multiples of the warp strip (30
// columns), the band (32 rows) or the tile (128 columns). Skipped without a CUDA
// device.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "models/projection/projection_config.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

ProjectionConfig walls(int nx, int ny) {
  ProjectionConfig c;
  c.grid = Grid::make(nx, ny, 1.0, double(ny) / nx);
  c.nu = 0.005;
  for (Side s : kSides) {
    int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    c.boundaries[int(s)] = SideCondition{BoundaryKind::Dirichlet, "wall", std::vector<double>(n, 0.0),
                                         std::vector<double>(n, s == Side::Top ? 1.0 : 0.0)};
  }
  c.pressure.solver = PressureSolverKind::RedBlackSOR;
  c.pressure.tol = 1e-7;
  c.pressure.max_iter = 5000;
  c.pressure.omega = 1.8;
  return c;
}

// A channel: inflow left, outflow right (a Dirichlet pressure side), and an
// optional block (the flag-array variants).
ProjectionConfig channel(int nx, int ny, bool block) {
  ProjectionConfig c = walls(nx, ny);
  c.boundaries[int(Side::Top)].tangential.assign(nx, 0.0);
  for (int j = 1; j <= ny; ++j) {
    double y = c.grid.yc(j) / c.grid.ly;
    c.boundaries[0].normal[j - 1] = 6 * y * (1 - y);
  }
  c.boundaries[1] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  if (block) {
    c.solid.assign(std::size_t(nx) * ny, 0);
    c.obstacle_id.assign(std::size_t(nx) * ny, -1);
    for (int j = ny / 3; j <= ny / 2; ++j)
      for (int i = nx / 4; i <= nx / 4 + 5; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;
  }
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

// Runs the case with each forced pressure variant on CUDA and with the CPU's
// choice; every one must agree with the CPU to `tol` of the field scale and take
// the same number of sweeps.
void variants_agree(ProjectionConfig c, Precision prec, const std::vector<std::string>& variants, double tol) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  c.precision = prec;
  c.backend = BackendChoice::Cpu;
  auto cpu = make_projection_solver(c);
  for (int k = 0; k < 30; ++k) cpu->step();
  for (const auto& v : variants) {
    ProjectionConfig g = c;
    g.backend = BackendChoice::Cuda;
    g.kernels["pressure"] = v;
    auto gpu = make_projection_solver(g);
    ASSERT_NE(gpu->plan().find(v + " (forced)"), std::string::npos) << gpu->plan();
    for (int k = 0; k < 30; ++k) gpu->step();
    EXPECT_LE(max_rel_diff(*cpu, *gpu), tol) << "variant " << v;
    // In double the same iterates are checked, so the sweep counts and the reported
    // residuals (of the returned iterate) agree; in float a check on a noisy
    // residual may stop 5 sweeps apart.
    if (prec == Precision::Double) {
      const Diagnostics a = cpu->diagnostics(), b = gpu->diagnostics();
      EXPECT_EQ(a.get("pressure_iterations"), b.get("pressure_iterations")) << "variant " << v;
      EXPECT_NEAR(a.get("pressure_residual"), b.get("pressure_residual"), 1e-6 * a.get("pressure_residual")) << "variant " << v;
    }
  }
}

}  // namespace

TEST(CudaKernelVariants, CavityOddSizeDouble) {
  variants_agree(walls(101, 77), Precision::Double,
                 {"rbsor_block_open", "rbsor_block", "rbsor_fused_open", "rbsor_fused", "rbsor_tile_open", "rbsor_tile",
                  "rbsor_open", "flagged"},
                 1e-10);
}
TEST(CudaKernelVariants, ChannelOutflowDouble) {
  variants_agree(channel(131, 45, false), Precision::Double, {"rbsor_fused_open", "rbsor_fused", "rbsor_tile_open", "flagged"}, 1e-10);
}
TEST(CudaKernelVariants, ChannelBlockDouble) {
  variants_agree(channel(131, 45, true), Precision::Double, {"rbsor_block", "rbsor_fused", "rbsor_tile", "flagged"}, 1e-10);
}
TEST(CudaKernelVariants, CavityOddSizeFloat) {
  variants_agree(walls(101, 77), Precision::Float, {"rbsor_block_open", "rbsor_fused_open", "rbsor_tile_open", "flagged"},
                 1e-4);
}

// The plan on CUDA: the fused sweep (the one-block sweeps are forced only), two colours
// with periodic sides (neither kernel wraps).
TEST(CudaKernelVariants, PlanPicksFusedExceptPeriodic) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ProjectionConfig c = walls(64, 64);
  c.backend = BackendChoice::Cuda;
  EXPECT_NE(make_projection_solver(c)->plan().find("rbsor_fused_open:"), std::string::npos);
  ProjectionConfig big = walls(200, 200);  // double: 202^2 x 8 bytes > 227 KiB
  big.backend = BackendChoice::Cuda;
  EXPECT_NE(make_projection_solver(big)->plan().find("rbsor_fused_open:"), std::string::npos);
  c.boundaries[0] = c.boundaries[1] = SideCondition{BoundaryKind::Periodic, "periodic", {}, {}};
  EXPECT_NE(make_projection_solver(c)->plan().find("rbsor_open:"), std::string::npos);
}
