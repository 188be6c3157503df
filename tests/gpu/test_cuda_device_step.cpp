// The projection step without host round trips on CUDA (issue 12), against the path
// before it: kernels.dt = "device" (dt computed and kept on the device), kernels.
// pressure_stop = "device" (the SOR's checks decided there) and kernels.launch =
// "graph" (the step replayed from a CUDA graph, the SOR loop a conditional while node)
// must give what dt = "host", pressure_stop = "host", launch = "direct" give:
//   - with the two-colour sweeps (deterministic sums) the same bits: dt sequence,
//     time, fields, sweep counts;
//   - with the fused sweep (its residual is summed with atomics, in no fixed order) the
//     same sweep counts and fields to round-off.
// The graph must really be captured (the plan says how many). Skipped without a CUDA
// device. The CPU runs the same device-path code: tests/unit/test_projection_device_dt.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "models/projection/projection_config.hpp"
#include "sim/batch.hpp"
#include "sim/run_loop.hpp"
#include "sim/solver.hpp"
#include "../unit/projection_test_cases.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int n, Precision prec) { return test::cuda_sor_cavity(n, prec); }

// Inflow, outflow right, a block (flag-array kernels), donor-cell share.
ProjectionConfig channel(int nx, int ny) {
  ProjectionConfig c = cavity(nx, Precision::Double);
  c.grid = Grid::make(nx, ny, 4.0, 1.0);
  c.nu = 0.01;
  for (Side s : kSides) {
    int n = (s == Side::Left || s == Side::Right) ? ny : nx;
    c.boundaries[int(s)] = SideCondition{BoundaryKind::Dirichlet, "wall", std::vector<double>(n, 0.0),
                                         std::vector<double>(n, 0.0)};
  }
  for (int j = 1; j <= ny; ++j) {
    const double y = c.grid.yc(j);
    c.boundaries[0].normal[j - 1] = 4 * y * (1 - y);
  }
  c.boundaries[1] = SideCondition{BoundaryKind::Outflow, "outflow", {}, {}};
  c.solid.assign(std::size_t(nx) * ny, 0);
  c.obstacle_id.assign(std::size_t(nx) * ny, -1);
  for (int j = ny / 3; j <= ny / 2; ++j)
    for (int i = nx / 5; i <= nx / 5 + 4; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;
  c.advection.gamma = 0.3;
  return c;
}

ProjectionConfig old_path(ProjectionConfig c) {
  c.kernels["dt"] = "host";
  c.kernels["pressure_stop"] = "host";
  c.kernels["launch"] = "direct";
  return c;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double max_rel_diff(Solver& a, Solver& b) {
  double worst = 0;
  for (const char* f : {"u", "v", "p"}) {
    const FieldSnapshot fa = a.field(f), fb = b.field(f);
    double m = 0, scale = 1e-300;
    for (std::size_t k = 0; k < fa.values.size(); ++k) {
      m = std::max(m, std::abs(fa.values[k] - fb.values[k]));
      scale = std::max(scale, std::abs(fa.values[k]));
    }
    worst = std::max(worst, m / scale);
  }
  return worst;
}

// The number after `key` in the plan's step line ("... graphs captured 2, ...").
long plan_count(const std::string& plan, const std::string& key) {
  const std::size_t at = plan.find(key);
  if (at == std::string::npos) return -1;
  return std::atol(plan.c_str() + at + key.size());
}

// Steps the old and the new path side by side; dt and time compared after every step
// (reading them waits for the device), the fields and sweep counts at the end.
void compare(const ProjectionConfig& c, int steps, bool exact, double tol, const std::string& what) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  auto a = make_projection_solver(old_path(c));
  auto b = make_projection_solver(c);
  int identical = 0;
  double worst_dt = 0;
  for (int k = 1; k <= steps; ++k) {
    a->step();
    b->step();
    const double da = a->dt(), db = b->dt();
    if (same_bits(da, db)) ++identical;
    worst_dt = std::max(worst_dt, std::abs(da - db) / da);
    EXPECT_EQ(a->diagnostics().get("pressure_iterations"), b->diagnostics().get("pressure_iterations"))
        << what << ", step " << k;
  }
  std::printf("%s: %d of %d dts bit-identical, largest relative difference %.3g; fields %.3g\n", what.c_str(),
              identical, steps, worst_dt, max_rel_diff(*a, *b));
  if (exact) {
    EXPECT_EQ(identical, steps) << what;
    EXPECT_TRUE(same_bits(a->time(), b->time())) << what;
    EXPECT_EQ(max_rel_diff(*a, *b), 0.0) << what;
  } else {
    EXPECT_LE(worst_dt, tol) << what;
    EXPECT_LE(max_rel_diff(*a, *b), tol) << what;
  }
  const Diagnostics da = a->diagnostics(), db = b->diagnostics();
  EXPECT_NEAR(da.get("pressure_residual"), db.get("pressure_residual"),
              exact ? 0.0 : 1e-6 * da.get("pressure_residual")) << what;
  const std::string plan = b->plan();
  std::printf("%s\n", plan.c_str());
  EXPECT_GE(plan_count(plan, "graphs captured "), 2) << plan;
}

}  // namespace

// Two-colour sweeps: every sum in a fixed order, so the new path gives the same bits.
TEST(CudaDeviceStep, TwoColourCavitySameBits) {
  ProjectionConfig c = cavity(96, Precision::Double);
  c.kernels["pressure"] = "rbsor_open";
  compare(c, 60, true, 0, "cavity 96^2, two-colour");
}

TEST(CudaDeviceStep, TwoColourChannelBlockSameBits) {
  ProjectionConfig c = channel(120, 30);
  c.kernels["pressure"] = "flagged";
  compare(c, 60, true, 0, "channel with a block, two-colour");
}

// Fused sweeps (check_every 5: bodies of 10 sweeps, a while node in the graph).
// (Forced: at these sizes the plan picks the one-block sweeps, tests/gpu/test_cuda_block_sor.cpp.)
TEST(CudaDeviceStep, FusedCavityAgrees) {
  ProjectionConfig c = cavity(130, Precision::Double);
  c.kernels["pressure"] = "rbsor_fused_open";
  compare(c, 60, false, 1e-10, "cavity 130^2, fused");
}

TEST(CudaDeviceStep, FusedChannelBlockAgrees) {
  ProjectionConfig c = channel(150, 40);
  c.kernels["pressure"] = "rbsor_fused";
  c.pressure.check_every = 4;  // even: bodies of one check
  compare(c, 60, false, 1e-10, "channel with a block, fused, check_every 4");
}

// The harness's cavity (engine/bench/projection_bench.hpp): five sweeps, no check,
// one body; in float.
TEST(CudaDeviceStep, BenchCavityFloatAgrees) {
  ProjectionConfig c = cavity(128, Precision::Float);
  c.pressure.tol = 1e-300;
  c.pressure.max_iter = 5;
  c.pressure.check_every = 5;
  compare(c, 100, false, 1e-5, "bench cavity 128^2, float, 5 sweeps");
}

// The run loop with t_end and a time callback, reading the device's time a few steps
// late: the same steps, the same landing on t_end; the bound is never below the time.
TEST(CudaDeviceStep, RunLoopLandsOnTEndAlike) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  std::vector<double> times[2];
  std::vector<long> callbacks[2];
  RunReport rep[2];
  for (int k = 0; k < 2; ++k) {
    ProjectionConfig c = cavity(64, Precision::Double);
    c.kernels["pressure"] = "rbsor_open";
    if (k == 0) c = old_path(c);
    RunLoop loop(make_projection_solver(c));
    StopConditions st;
    st.t_end = 0.4;
    loop.set_stop_conditions(st);
    loop.every_steps(1, [&, k] { times[k].push_back(loop.solver().time_upper_bound()); });
    loop.every_time(0.05, [&, k] { callbacks[k].push_back(loop.solver().steps()); });
    rep[k] = loop.run();
    EXPECT_EQ(rep[k].reason, StopReason::TimeEnd);
    EXPECT_NEAR(loop.solver().time(), 0.4, 1e-12);
  }
  EXPECT_EQ(rep[0].steps, rep[1].steps);
  EXPECT_TRUE(same_bits(rep[0].sim_time, rep[1].sim_time));
  EXPECT_EQ(callbacks[0], callbacks[1]);
  ASSERT_EQ(times[0].size(), times[1].size());
  for (std::size_t k = 0; k < times[0].size(); ++k) EXPECT_GE(times[1][k], times[0][k]) << "step " << k + 1;
}

// A blow-up is seen a few steps late but named at the step that failed.
TEST(CudaDeviceStep, BlowUpNamesTheFailedStep) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  long step[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    ProjectionConfig c = cavity(32, Precision::Double);
    c.kernels["pressure"] = "rbsor_open";
    c.time.dt = 5.0;
    c.nu = 1e-4;
    if (k == 0) c = old_path(c);
    auto s = make_projection_solver(c);
    try {
      for (int n = 0; n < 200; ++n) s->step();
      (void)s->time();  // a failure in the last steps in flight surfaces here
      FAIL() << "no blow-up detected";
    } catch (const BlowUp& b) {
      step[k] = b.step;
    }
  }
  EXPECT_GT(step[0], 0);
  EXPECT_EQ(step[0], step[1]);
}

// pressure.mixed reads back inside its refinement: no graph, but dt on the device
// still gives what the host gives.
TEST(CudaDeviceStep, MixedPressureDeviceDtAgrees) {
  ProjectionConfig c = cavity(64, Precision::Float);
  c.pressure_mixed = true;
  c.pressure.tol = 1e-6;
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  auto a = make_projection_solver(old_path(c));
  auto b = make_projection_solver(c);
  for (int k = 0; k < 30; ++k) {
    a->step();
    b->step();
  }
  EXPECT_NEAR(a->time(), b->time(), 1e-6 * a->time());
  EXPECT_LE(max_rel_diff(*a, *b), 1e-4);
  EXPECT_NE(b->plan().find("direct launches"), std::string::npos) << b->plan();
}

// The batch's fused sweeps (FusedSorSweep::run_batch: one launch per sweep for all
// members, projection_batch.hpp) against each member alone, the batch with the
// two-colour sweeps likewise: members that converge at different checks, one that runs into
// max_iter (37: odd, not a multiple of check_every), one with another check_every.
TEST(CudaDeviceStep, BatchFusedSweepsEqualAlone) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  std::vector<ProjectionConfig> cs;
  for (int k = 0; k < 4; ++k) {
    ProjectionConfig c = cavity(70, Precision::Double);
    c.nu = 0.004 * (1 + k);
    c.boundaries[int(Side::Top)].tangential.assign(70, 1.0 - 0.1 * k);
    c.pressure.tol = 1e-8;
    c.pressure.max_iter = 400;
    cs.push_back(c);
  }
  cs[2].pressure.max_iter = 37;
  cs[3].pressure.check_every = 4;
  for (int variant = 0; variant < 2; ++variant) {
    std::vector<std::unique_ptr<RunLoop>> loops;
    std::vector<RunLoop*> ptrs;
    for (ProjectionConfig c : cs) {
      c.kernels["pressure"] = variant == 0 ? "rbsor_fused_open" : "rbsor_open";
      loops.push_back(std::make_unique<RunLoop>(make_projection_solver(c)));
      StopConditions st;
      st.max_steps = 25;
      loops.back()->set_stop_conditions(st);
      ptrs.push_back(loops.back().get());
    }
    ASSERT_NE(loops[0]->solver().plan().find(variant == 0 ? "rbsor_fused_open (forced)" : "rbsor_open (forced)"),
              std::string::npos);
    BatchRun run(ptrs, BatchOptions{});
    const BatchReport rep = run.run();
    for (std::size_t k = 0; k < cs.size(); ++k) {
      auto alone = make_projection_solver(cs[k]);  // fused, stop on the device, graphs
      for (int n = 0; n < 25; ++n) alone->step();
      Solver& member = loops[k]->solver();
      const double d = max_rel_diff(member, *alone);
      std::printf("batch (%s) member %zu against alone: %.3g, sweeps %g and %g\n", variant == 0 ? "fused" : "two-colour",
                  k, d, member.diagnostics().get("pressure_iterations"), alone->diagnostics().get("pressure_iterations"));
      // The batch's ||rhs|| adds in another order, so a check may stop one check_every
      // apart (p moves by ~tol), as in CudaBatch.*.
      EXPECT_LE(d, 1e-6) << "member " << k << (variant == 0 ? ", fused" : ", two-colour");
      EXPECT_LE(std::abs(member.diagnostics().get("pressure_iterations") - alone->diagnostics().get("pressure_iterations")),
                5.0)
          << "member " << k;
      EXPECT_EQ(rep.members[k].steps, 25);
    }
  }
}

// A batch of the harness's cavities (five fused sweeps, float): every stage batched.
TEST(CudaDeviceStep, BatchFusedBenchCavitiesFloat) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  std::vector<std::unique_ptr<RunLoop>> loops;
  std::vector<RunLoop*> ptrs;
  std::vector<ProjectionConfig> cs;
  for (int k = 0; k < 8; ++k) {
    ProjectionConfig c = cavity(64, Precision::Float);
    c.nu = 1e-3 * (1 + 0.01 * k);
    c.pressure.tol = 1e-300;
    c.pressure.max_iter = 5;
    c.pressure.check_every = 5;
    cs.push_back(c);
    loops.push_back(std::make_unique<RunLoop>(make_projection_solver(c)));
    StopConditions st;
    st.max_steps = 40;
    loops.back()->set_stop_conditions(st);
    ptrs.push_back(loops.back().get());
  }
  BatchRun run(ptrs, BatchOptions{});
  const BatchReport rep = run.run();
  EXPECT_TRUE(rep.batched);
  for (std::size_t k = 0; k < cs.size(); ++k) {
    auto alone = make_projection_solver(cs[k]);
    for (int n = 0; n < 40; ++n) alone->step();
    EXPECT_LE(max_rel_diff(loops[k]->solver(), *alone), 1e-5) << "member " << k;
  }
}
