// The shared-memory tile variants against the kernels they reorganise, which compute
// the same arithmetic on the same values in the same order, so the fields must be
// the same bits:
//   - the tiled red-black sweep (linalg/rbsor_tile.cuh, kernels.pressure =
//     "rbsor_tile_open" / "rbsor_tile") against the fused sweep, for every tile shape
//     (FLOWLUA_SOR_TILE 8, 16, 32, 8p, 16p), on grids that end inside a tile in both
//     directions, that are a single column or row past a tile, and with obstacles (the
//     flag array); only the residual's sum is added in another order, so the sweep
//     counts must agree too;
//   - the momentum tile (models/projection/momentum_tile.cuh, kernels.momentum =
//     "central_tile_open" / "hybrid_tile_open") against the one-pass kernels, with
//     periodic sides too, and against the CPU to round-off.
// The CPU comparison of every pressure variant is in test_cuda_kernel_variants.cpp.
// Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "models/projection/projection_config.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

ProjectionConfig walls(int nx, int ny, Precision prec) {
  ProjectionConfig c;
  c.grid = Grid::make(nx, ny, 1.0, double(ny) / nx);
  c.nu = 0.005;
  for (Side s : kSides) {
    int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    c.boundaries[int(s)] = SideCondition{BoundaryKind::Dirichlet, "wall", std::vector<double>(n, 0.0),
                                         std::vector<double>(n, s == Side::Top ? 1.0 : 0.0)};
  }
  c.pressure.solver = PressureSolverKind::RedBlackSOR;
  c.pressure.tol = prec == Precision::Double ? 1e-7 : 1e-4;
  c.pressure.max_iter = 400;
  c.pressure.omega = 1.8;
  c.precision = prec;
  c.backend = BackendChoice::Cuda;
  return c;
}

// Inflow left, outflow right (p = 0 on that face: Dirichlet couplings), and two
// blocks (obstacle cells: the flag-array variants), one across a tile's edge.
ProjectionConfig channel(int nx, int ny, Precision prec) {
  ProjectionConfig c = walls(nx, ny, prec);
  c.boundaries[int(Side::Top)].tangential.assign(nx, 0.0);
  for (int j = 1; j <= ny; ++j) {
    double y = c.grid.yc(j) / c.grid.ly;
    c.boundaries[0].normal[j - 1] = 6 * y * (1 - y);
  }
  c.boundaries[1] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  c.solid.assign(std::size_t(nx) * ny, 0);
  c.obstacle_id.assign(std::size_t(nx) * ny, -1);
  for (int j = ny / 3; j <= ny / 2; ++j)
    for (int i = 124; i <= 133 && i <= nx; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;  // across columns 128 | 129
  for (int j = 14; j <= 19 && j <= ny; ++j)
    for (int i = 3 * nx / 4; i <= 3 * nx / 4 + 3; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;  // across rows 16 | 17
  return c;
}

// The largest |a - b| over u, v, p.
double max_abs_diff(Solver& a, Solver& b) {
  double m = 0;
  for (const char* f : {"u", "v", "p"}) {
    FieldSnapshot fa = a.field(f), fb = b.field(f);
    EXPECT_EQ(fa.values.size(), fb.values.size());
    for (std::size_t k = 0; k < fa.values.size() && k < fb.values.size(); ++k) {
      const double d = std::abs(fa.values[k] - fb.values[k]);
      if (!(d <= m)) m = d;  // a NaN shows as one
    }
  }
  return m;
}

// Sets FLOWLUA_SOR_TILE for one scope (the tiled launch reads it at every launch, and
// a CUDA graph records the launch of its first step).
struct TileShape {
  explicit TileShape(const std::string& shape) { setenv("FLOWLUA_SOR_TILE", shape.c_str(), 1); }
  ~TileShape() { unsetenv("FLOWLUA_SOR_TILE"); }
};

// `steps` steps with kernels.pressure = `reference` and with `tiled` at each tile
// height: the same fields, bit for bit, and the same sweep counts.
void tile_equals_fused(const ProjectionConfig& c, const std::string& reference, const std::string& tiled,
                       const std::vector<std::string>& shapes, int steps = 12) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ProjectionConfig r = c;
  r.kernels["pressure"] = reference;
  auto ref = make_projection_solver(r);
  ASSERT_NE(ref->plan().find(reference + " (forced)"), std::string::npos) << ref->plan();
  for (int k = 0; k < steps; ++k) ref->step();
  const double ref_iters = ref->diagnostics().get("pressure_iterations");
  EXPECT_GT(ref_iters, 5) << "the solves should take several checks";
  for (const std::string& rows : shapes) {
    TileShape env(rows);
    ProjectionConfig t = c;
    t.kernels["pressure"] = tiled;
    auto tile = make_projection_solver(t);
    ASSERT_NE(tile->plan().find(tiled + " (forced)"), std::string::npos) << tile->plan();
    for (int k = 0; k < steps; ++k) tile->step();
    EXPECT_EQ(max_abs_diff(*ref, *tile), 0.0) << tiled << " with " << rows << " (FLOWLUA_SOR_TILE)";
    EXPECT_EQ(ref_iters, tile->diagnostics().get("pressure_iterations")) << tiled << " with " << rows << " rows";
    const double a = ref->diagnostics().get("pressure_residual"), b = tile->diagnostics().get("pressure_residual");
    EXPECT_NEAR(a, b, 1e-9 * std::abs(a) + 1e-300) << tiled << " with " << rows << " rows";
  }
}

}  // namespace

// 300 x 170: three tiles across (the last 44 columns wide), rows ending inside a tile
// for every height; 129 x 33: one column past a tile, one row past 32.
TEST(CudaSweepTile, OpenCavityDoubleBitForBit) {
  tile_equals_fused(walls(300, 170, Precision::Double), "rbsor_fused_open", "rbsor_tile_open", {"8", "16"});
}
TEST(CudaSweepTile, OpenCavityFloatBitForBit) {
  tile_equals_fused(walls(300, 170, Precision::Float), "rbsor_fused_open", "rbsor_tile_open", {"8", "16", "32", "8p", "16p"});
}
TEST(CudaSweepTile, NarrowEdgesDoubleBitForBit) {
  tile_equals_fused(walls(129, 33, Precision::Double), "rbsor_fused_open", "rbsor_tile_open", {"8", "16"});
  tile_equals_fused(walls(256, 64, Precision::Double), "rbsor_fused_open", "rbsor_tile_open", {"16"});
  tile_equals_fused(walls(7, 5, Precision::Double), "rbsor_fused_open", "rbsor_tile_open", {"8"});
}
TEST(CudaSweepTile, NarrowEdgesFloatBitForBit) {
  tile_equals_fused(walls(129, 33, Precision::Float), "rbsor_fused_open", "rbsor_tile_open", {"8p", "32"});
  tile_equals_fused(walls(256, 64, Precision::Float), "rbsor_fused_open", "rbsor_tile_open", {"16p", "8"});
}
// With two buffers a block sweeps tiles blockIdx.x, + gridDim.x, ... (gridDim: the
// blocks resident at once, about 4 a multiprocessor): 1100 x 1000 has 567 tiles of
// 16 rows and 1125 of 8, more than an H100's 528 resident blocks, so blocks sweep
// several tiles and prefetch.
TEST(CudaSweepTile, ManyTilesABlockFloatBitForBit) {
  tile_equals_fused(walls(1100, 1000, Precision::Float), "rbsor_fused_open", "rbsor_tile_open", {"16p", "8p", "16"},
                    3);
}
TEST(CudaSweepTile, ChannelObstaclesDoubleBitForBit) {
  tile_equals_fused(channel(261, 45, Precision::Double), "rbsor_fused", "rbsor_tile", {"8", "16"});
}
TEST(CudaSweepTile, ChannelObstaclesFloatBitForBit) {
  tile_equals_fused(channel(261, 45, Precision::Float), "rbsor_fused", "rbsor_tile", {"16", "32", "16p"});
}
// The open variant on the outflow channel without blocks (Dirichlet couplings from
// the position).
TEST(CudaSweepTile, ChannelOutflowOpenDoubleBitForBit) {
  ProjectionConfig c = channel(261, 45, Precision::Double);
  c.solid.clear();
  c.obstacle_id.clear();
  tile_equals_fused(c, "rbsor_fused_open", "rbsor_tile_open", {"8", "16"});
}

// Not chosen unless forced (until the H100 measures it faster), and refused where the
// fused sweep cannot run (periodic sides).
TEST(CudaSweepTile, ForcedOnlyAndNotPeriodic) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ProjectionConfig c = walls(64, 64, Precision::Double);
  EXPECT_NE(make_projection_solver(c)->plan().find("rbsor_fused_open:"), std::string::npos);
  c.boundaries[0] = c.boundaries[1] = SideCondition{BoundaryKind::Periodic, "periodic", {}, {}};
  c.kernels["pressure"] = "rbsor_tile_open";
  EXPECT_THROW(make_projection_solver(c), CaseError);
}

// The momentum tile: the same bits as the one-pass kernels (two-colour sweeps, whose
// sums are deterministic, so whole runs must agree), and the CPU to round-off.
namespace {

void momentum_tile_equals(ProjectionConfig c, const std::string& reference, const std::string& tiled,
                          double cpu_tol, int steps = 15) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  c.kernels["pressure"] = "rbsor_open";
  ProjectionConfig r = c, t = c;
  r.kernels["momentum"] = reference;
  t.kernels["momentum"] = tiled;
  auto ref = make_projection_solver(r), tile = make_projection_solver(t);
  ASSERT_NE(tile->plan().find(tiled + " (forced)"), std::string::npos) << tile->plan();
  ASSERT_NE(ref->plan().find(reference + " (forced)"), std::string::npos) << ref->plan();
  ProjectionConfig h = c;
  h.backend = BackendChoice::Cpu;
  h.kernels.clear();
  auto cpu = make_projection_solver(h);
  for (int k = 0; k < steps; ++k) {
    ref->step();
    tile->step();
    cpu->step();
  }
  EXPECT_EQ(max_abs_diff(*ref, *tile), 0.0) << tiled;
  EXPECT_EQ(ref->time(), tile->time()) << tiled;
  double worst = 0, scale = 1e-30;
  for (const char* f : {"u", "v", "p"}) {
    FieldSnapshot a = cpu->field(f), b = tile->field(f);
    for (std::size_t k = 0; k < a.values.size(); ++k) {
      worst = std::max(worst, std::abs(a.values[k] - b.values[k]));
      scale = std::max(scale, std::abs(a.values[k]));
    }
  }
  EXPECT_LE(worst / scale, cpu_tol) << tiled << " against the CPU";
}

// A periodic channel: left and right periodic, walls top and bottom, a body force.
ProjectionConfig periodic_channel(int nx, int ny, Precision prec) {
  ProjectionConfig c = walls(nx, ny, prec);
  c.boundaries[int(Side::Top)].tangential.assign(nx, 0.0);
  c.boundaries[0] = c.boundaries[1] = SideCondition{BoundaryKind::Periodic, "periodic", {}, {}};
  c.gx = 1.0;
  return c;
}

}  // namespace

// 300 x 170 faces 0 .. 300 by 0 .. 170: three tiles across (the last 45 faces), rows
// ending inside the last tile; 127 x 15: faces exactly one tile.
TEST(CudaMomentumTile, CentralDouble) {
  momentum_tile_equals(walls(300, 170, Precision::Double), "central_open", "central_tile_open", 1e-10);
  momentum_tile_equals(walls(127, 15, Precision::Double), "central_open", "central_tile_open", 1e-10);
}
TEST(CudaMomentumTile, CentralFloat) {
  momentum_tile_equals(walls(300, 170, Precision::Float), "central_open", "central_tile_open", 1e-3);
}
TEST(CudaMomentumTile, HybridDouble) {
  ProjectionConfig c = walls(261, 131, Precision::Double);
  c.advection.gamma = 0.4;
  momentum_tile_equals(c, "hybrid_open", "hybrid_tile_open", 1e-10);
}
TEST(CudaMomentumTile, HybridFloat) {
  ProjectionConfig c = walls(129, 33, Precision::Float);
  c.advection.gamma = 0.4;
  momentum_tile_equals(c, "hybrid_open", "hybrid_tile_open", 1e-3);
}
TEST(CudaMomentumTile, PeriodicDouble) {
  momentum_tile_equals(periodic_channel(200, 40, Precision::Double), "central_open", "central_tile_open", 1e-10);
}
// Where the tile does not apply: obstacles (no "open" flags).
TEST(CudaMomentumTile, RefusedWithObstacles) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ProjectionConfig c = channel(131, 45, Precision::Double);
  c.kernels["momentum"] = "central_tile_open";
  EXPECT_THROW(make_projection_solver(c), CaseError);
}
