// The one-block SOR variant (linalg/rbsor_block.cuh, issue 12: the sweeps between two
// residual checks of a small grid in one launch of one thread block, p in shared
// memory) against the two-colour kernels it replaces. It runs the same point
// arithmetic on the same cells in the same order of colours, and leaves the residual
// checks to the same reductions, so it must give the same bits: every dt, every sweep
// count, the reported residual and the fields u, v, p, through the device stop (body
// gates inside the launch, the graph's while node) and through the host stop. Grids
// odd, even and not square, open (flags from the position) and with an obstacle
// (flags from the array, in shared memory), float and double. Skipped without a CUDA
// device; the plan's choice is tested on the CPU (tests/unit/test_block_sor_plan.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "models/projection/projection_config.hpp"
#include "sim/solver.hpp"
#include "../unit/projection_test_cases.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int nx, int ny, Precision prec) {
  ProjectionConfig c = test::lid_cavity(nx, PressureSolverKind::RedBlackSOR, 1e-7, 3000, 0.005);
  c.grid = Grid::make(nx, ny, 1.0, double(ny) / nx);
  for (Side s : kSides) {
    const int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    c.boundaries[int(s)].normal.assign(n, 0.0);
    c.boundaries[int(s)].tangential.assign(n, s == Side::Top ? 1.0 : 0.0);
  }
  c.pressure.omega = 1.8;
  c.precision = prec;
  c.backend = BackendChoice::Cuda;
  return c;
}

// Inflow left, outflow right (a Dirichlet pressure side), a block of solid cells:
// the flag-array kernels, every coupling kind.
ProjectionConfig channel(int nx, int ny, Precision prec) {
  ProjectionConfig c = cavity(nx, ny, prec);
  c.grid = Grid::make(nx, ny, 4.0, 4.0 * ny / nx);
  c.nu = 0.01;
  c.boundaries[int(Side::Top)].tangential.assign(nx, 0.0);
  for (int j = 1; j <= ny; ++j) {
    const double y = c.grid.yc(j) / c.grid.ly;
    c.boundaries[int(Side::Left)].normal[j - 1] = 4 * y * (1 - y);
  }
  c.boundaries[int(Side::Right)] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  c.solid.assign(std::size_t(nx) * ny, 0);
  c.obstacle_id.assign(std::size_t(nx) * ny, -1);
  for (int j = ny / 3; j <= ny / 2; ++j)
    for (int i = nx / 5; i <= nx / 5 + 4; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;
  return c;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Cells whose bits differ between the two solvers' u, v and p.
long differing_cells(Solver& a, Solver& b) {
  long n = 0;
  for (const char* f : {"u", "v", "p"}) {
    const FieldSnapshot fa = a.field(f), fb = b.field(f);
    if (fa.values.size() != fb.values.size()) return -1;
    for (std::size_t k = 0; k < fa.values.size(); ++k) n += !same_bits(fa.values[k], fb.values[k]);
  }
  return n;
}

// Steps `block` (the one-block variant) and `ref` side by side: the same dt bits and
// sweep counts every step, the same residual and fields at the end.
void same_bits_as(const ProjectionConfig& block, const ProjectionConfig& ref, int steps, const std::string& what) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  auto a = make_projection_solver(block);
  auto b = make_projection_solver(ref);
  const std::string want = block.kernels.at("pressure") + " (forced)";
  ASSERT_NE(a->plan().find(want), std::string::npos) << a->plan();
  long sweeps = 0;
  for (int k = 1; k <= steps; ++k) {
    a->step();
    b->step();
    ASSERT_TRUE(same_bits(a->dt(), b->dt())) << what << ", step " << k << ": dt " << a->dt() << " vs " << b->dt();
    const double ia = a->diagnostics().get("pressure_iterations"), ib = b->diagnostics().get("pressure_iterations");
    ASSERT_EQ(ia, ib) << what << ", step " << k;
    sweeps += long(ia);
  }
  const double ra = a->diagnostics().get("pressure_residual"), rb = b->diagnostics().get("pressure_residual");
  EXPECT_TRUE(same_bits(ra, rb)) << what << ": residual " << ra << " vs " << rb;
  const long diff = differing_cells(*a, *b);
  EXPECT_EQ(diff, 0) << what;
  std::printf("%s: %d steps, %ld sweeps, last residual %.6g, %ld cells differ\n", what.c_str(), steps, sweeps, ra,
              diff);
}

ProjectionConfig with(ProjectionConfig c, const std::string& pressure) {
  c.kernels["pressure"] = pressure;
  return c;
}

// The step as before issue 12: dt and the SOR stop on the host, kernels launched one by one.
ProjectionConfig host_path(ProjectionConfig c) {
  c.kernels["dt"] = "host";
  c.kernels["pressure_stop"] = "host";
  c.kernels["launch"] = "direct";
  return c;
}

// A fixed number of sweeps that is not a multiple of check_every: every step runs
// bodies of 5, 5, 5, 5 and 3 (bodies > 1: on the device path a graph's while node,
// whose last launch has 5 sweeps of which the gates open 3).
ProjectionConfig fixed_sweeps(ProjectionConfig c, int max_iter = 23) {
  c.pressure.tol = 1e-300;
  c.pressure.max_iter = max_iter;
  c.pressure.check_every = 5;
  return c;
}

}  // namespace

TEST(CudaBlockSor, OpenGridsSameBitsAsTwoColour) {
  for (Precision prec : {Precision::Double, Precision::Float})
    for (const auto& [nx, ny] : std::vector<std::pair<int, int>>{{128, 128}, {101, 77}, {37, 150}, {64, 21}, {5, 33}}) {
      const ProjectionConfig c = fixed_sweeps(cavity(nx, ny, prec));
      const std::string what = "cavity " + std::to_string(nx) + "x" + std::to_string(ny) + " " + precision_name(prec);
      same_bits_as(with(c, "rbsor_block_open"), with(c, "rbsor_open"), 12, what + ", open");
      same_bits_as(with(c, "rbsor_block"), with(c, "flagged"), 6, what + ", flag array");
    }
}

TEST(CudaBlockSor, ObstacleSameBitsAsTwoColour) {
  for (Precision prec : {Precision::Double, Precision::Float})
    for (const auto& [nx, ny] : std::vector<std::pair<int, int>>{{131, 45}, {120, 120}, {60, 97}}) {
      const ProjectionConfig c = fixed_sweeps(channel(nx, ny, prec), 17);
      const std::string what = "channel " + std::to_string(nx) + "x" + std::to_string(ny) + " " + precision_name(prec);
      same_bits_as(with(c, "rbsor_block"), with(c, "flagged"), 12, what);
    }
}

// The harness's step (engine/bench/projection_bench.hpp): 5 sweeps, one body, no
// check before the last; the plan keeps the fused sweep there (the block is forced only).
TEST(CudaBlockSor, BenchCavityFloatSameBitsForcedOnly) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ProjectionConfig c = fixed_sweeps(cavity(128, 128, Precision::Float), 5);
  EXPECT_NE(make_projection_solver(c)->plan().find("rbsor_fused_open:"), std::string::npos);
  same_bits_as(with(c, "rbsor_block_open"), with(c, "rbsor_open"), 100, "bench cavity 128^2 float, 5 sweeps");
}

// A tolerance reached mid-run: the device stop (checks in one-thread kernels, the
// block launch gated, a while node in the graph) stops after the same sweeps as the
// host stop of the two-colour solve, with the same residual and fields; so does the
// block variant's own host-stopped solve.
TEST(CudaBlockSor, DeviceStopMatchesHostStop) {
  struct Case {
    ProjectionConfig c;
    const char* ref;
    std::string what;
  };
  std::vector<Case> cases;
  cases.push_back({cavity(96, 96, Precision::Double), "rbsor_open", "cavity 96^2 double, tol 1e-7"});
  ProjectionConfig ch = channel(150, 40, Precision::Double);
  ch.pressure.tol = 1e-6;
  ch.pressure.check_every = 4;
  cases.push_back({ch, "flagged", "channel 150x40 double, tol 1e-6, check_every 4"});
  ProjectionConfig cf = cavity(77, 130, Precision::Float);
  cf.pressure.tol = 2e-4;
  cf.pressure.check_every = 3;
  cases.push_back({cf, "rbsor_open", "cavity 77x130 float, tol 2e-4, check_every 3"});
  for (const Case& k : cases) {
    const std::string block = k.c.solid.empty() ? "rbsor_block_open" : "rbsor_block";
    same_bits_as(with(k.c, block), host_path(with(k.c, k.ref)), 40, k.what + ", device stop vs two-colour host stop");
    same_bits_as(host_path(with(k.c, block)), host_path(with(k.c, k.ref)), 20,
                 k.what + ", host stop vs two-colour host stop");
  }
}

// Against the CPU: the same sweep counts and the fields to round-off (the GPU's
// compiler contracts a * b + c into one rounding where the CPU build does not).
TEST(CudaBlockSor, AgreesWithCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (int which = 0; which < 2; ++which) {
    ProjectionConfig c = which == 0 ? cavity(101, 77, Precision::Double) : channel(131, 45, Precision::Double);
    ProjectionConfig cpu = c;
    cpu.backend = BackendChoice::Cpu;
    auto a = make_projection_solver(cpu);
    auto b = make_projection_solver(with(c, which == 0 ? "rbsor_block_open" : "rbsor_block"));
    for (int k = 0; k < 30; ++k) {
      a->step();
      b->step();
      EXPECT_EQ(a->diagnostics().get("pressure_iterations"), b->diagnostics().get("pressure_iterations"))
          << which << ", step " << k;
    }
    for (const char* f : {"u", "v", "p"}) {
      const FieldSnapshot fa = a->field(f), fb = b->field(f);
      double m = 0, scale = 1e-300;
      for (std::size_t i = 0; i < fa.values.size(); ++i) {
        m = std::max(m, std::abs(fa.values[i] - fb.values[i]));
        scale = std::max(scale, std::abs(fa.values[i]));
      }
      EXPECT_LE(m / scale, 1e-10) << f << ", case " << which;
    }
  }
}
