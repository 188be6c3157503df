// Programmatic dependent launch in the recorded step (kernels.pdl, issue 12): with
// programmatic edges each kernel of the graph may be scheduled while the one before
// finishes, and must wait for it (pdl_enter, backend/cuda/cuda_exec.cuh) before it
// reads anything. Every kernel of these steps sums in a fixed order (the two-colour
// sweeps; the fused sweep of the harness's cavity checks nothing, so no atomics), so
// a step with programmatic edges must give the same bits as the same graph without
// them: a kernel that read its input early would show as a difference (the steps are
// many and small, where the overlap is largest). The recording must really have
// programmatic edges on a GPU of compute capability 9.0+, and none with pdl = "off".
// Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "models/projection/projection_config.hpp"
#include "sim/solver.hpp"
#include "../unit/projection_test_cases.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int n, Precision prec) { return test::cuda_sor_cavity(n, prec); }

// The harness's step (engine/bench/projection_bench.hpp): five fused sweeps, no check.
ProjectionConfig bench_cavity(int n, Precision prec) {
  ProjectionConfig c = cavity(n, prec);
  c.nu = 1e-3;
  c.pressure.tol = 1e-300;
  c.pressure.max_iter = 5;
  c.pressure.check_every = 5;
  return c;
}

// The number after `key` in the plan's step line.
long plan_count(const std::string& plan, const std::string& key) {
  const std::size_t at = plan.find(key);
  if (at == std::string::npos) return -1;
  return std::atol(plan.c_str() + at + key.size());
}

// Steps the case with pdl on and off side by side: dt after every step, the fields and
// the pressure report at the end, all bit for bit.
void same_bits_with_and_without(ProjectionConfig c, int steps, const std::string& what) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ProjectionConfig off = c;
  c.kernels["pdl"] = "on";
  off.kernels["pdl"] = "off";
  auto a = make_projection_solver(off);
  auto b = make_projection_solver(c);
  int differing_dt = 0;
  for (int k = 1; k <= steps; ++k) {
    a->step();
    b->step();
    if (k % 25 == 0 || k == steps) {  // reading dt waits for the device: not every step
      const double da = a->dt(), db = b->dt();
      if (std::memcmp(&da, &db, sizeof da) != 0) ++differing_dt;
    }
  }
  EXPECT_EQ(differing_dt, 0) << what;
  for (const char* f : {"u", "v", "p"}) {
    const FieldSnapshot fa = a->field(f), fb = b->field(f);
    ASSERT_EQ(fa.values.size(), fb.values.size());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < fa.values.size(); ++k)
      if (std::memcmp(&fa.values[k], &fb.values[k], sizeof(double)) != 0) ++differ;
    EXPECT_EQ(differ, 0u) << what << ": field " << f << " differs in " << differ << " cells";
  }
  const Diagnostics da = a->diagnostics(), db = b->diagnostics();
  EXPECT_EQ(da.get("pressure_iterations"), db.get("pressure_iterations")) << what;
  EXPECT_EQ(da.get("pressure_residual"), db.get("pressure_residual")) << what;
  const std::string pa = a->plan(), pb = b->plan();
  const std::size_t line = pb.find("step ");
  std::printf("%s: pdl on: %s\n", what.c_str(), (line == std::string::npos ? pb : pb.substr(line)).c_str());
  EXPECT_GE(plan_count(pb, "graphs captured "), 2) << pb;
  EXPECT_GE(plan_count(pa, "graphs captured "), 2) << pa;
  EXPECT_EQ(plan_count(pa, "programmatic edges "), 0) << pa;
  // Every kernel after a kernel: at least the sweeps and the stages around them (the
  // plan says when the GPU, before compute capability 9.0, has none).
  if (pb.find("has no programmatic launch") == std::string::npos)
    EXPECT_GE(plan_count(pb, "programmatic edges "), 8) << pb;
}

}  // namespace

// The harness's 128^2 step in float: 16-18 kernel nodes a step, fused sweeps inline.
TEST(CudaStepPdl, BenchCavityFloatSameBits) {
  same_bits_with_and_without(bench_cavity(128, Precision::Float), 400, "bench cavity 128^2 float");
}

TEST(CudaStepPdl, BenchCavityDoubleSameBits) {
  same_bits_with_and_without(bench_cavity(64, Precision::Double), 400, "bench cavity 64^2 double");
}

// Two-colour sweeps with checks: the SOR loop is a conditional while node (its body's
// kernels keep ordinary edges; those before and after it are programmatic).
TEST(CudaStepPdl, TwoColourWhileNodeSameBits) {
  ProjectionConfig c = cavity(96, Precision::Double);
  c.kernels["pressure"] = "rbsor_open";
  same_bits_with_and_without(c, 100, "cavity 96^2, two-colour, while node");
}

// A channel with a block and an outflow: flag-array kernels, obstacle faces, the
// outflow's one-dimensional launches, no mean removal.
TEST(CudaStepPdl, ChannelWithBlockSameBits) {
  ProjectionConfig c = cavity(120, Precision::Double);
  const int nx = 120, ny = 30;
  c.grid = Grid::make(nx, ny, 4.0, 1.0);
  c.nu = 0.01;
  for (Side s : kSides) {
    const int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    c.boundaries[int(s)] = SideCondition{BoundaryKind::Dirichlet, "wall", std::vector<double>(n, 0.0),
                                         std::vector<double>(n, 0.0)};
  }
  for (int j = 1; j <= ny; ++j) c.boundaries[0].normal[j - 1] = 4 * c.grid.yc(j) * (1 - c.grid.yc(j));
  c.boundaries[1] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  c.solid.assign(std::size_t(nx) * ny, 0);
  c.obstacle_id.assign(std::size_t(nx) * ny, -1);
  for (int j = ny / 3; j <= ny / 2; ++j)
    for (int i = nx / 5; i <= nx / 5 + 4; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;
  c.advection.gamma = 0.3;
  c.pressure.max_iter = 5;  // one body: every kernel inline, programmatic
  c.pressure.check_every = 5;
  c.pressure.tol = 1e-300;
  same_bits_with_and_without(c, 200, "channel with a block, fused, 5 sweeps");
}
