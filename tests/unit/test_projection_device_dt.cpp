// kernels.dt = "device" (issue 12): the projection model's adaptive dt computed and
// kept in backend memory (models/projection/dt_rule.hpp) gives the same dt sequence,
// the same time and the same state, bit for bit, as the host path (kernels.dt =
// "host", the maxima copied back every step). The CPU backend runs the device path's
// code (its "device" memory is host memory); tests/gpu/test_cuda_device_step.cpp
// compares the two on CUDA.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "models/projection/projection_config.hpp"
#include "sim/batch.hpp"
#include "sim/run_loop.hpp"
#include "sim/solver.hpp"
#include "projection_test_cases.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int n, PressureSolverKind solver) {
  return test::lid_cavity(n, solver, 1e-6, 400);
}

// A channel with a parabolic inflow, outflow right and a block: the outflow faces read
// dt too, and the block's flags take the flag-array kernels.
ProjectionConfig channel(int nx, int ny) {
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
  c.solid.assign(std::size_t(nx) * ny, 0);
  for (int j = ny / 3; j <= ny / 2; ++j)
    for (int i = nx / 5; i <= nx / 5 + 3; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;
  c.pressure.tol = 1e-6;
  c.pressure.max_iter = 400;
  c.backend = BackendChoice::Cpu;
  return c;
}

ProjectionConfig with_dt(ProjectionConfig c, const char* where) {
  c.kernels["dt"] = where;
  return c;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every array and scalar of the two states, bit for bit.
void expect_same_state(Solver& a, Solver& b, const std::string& what) {
  const SolverState sa = a.save_state(), sb = b.save_state();
  ASSERT_EQ(sa.arrays.size(), sb.arrays.size()) << what;
  for (std::size_t k = 0; k < sa.arrays.size(); ++k) {
    const auto& x = sa.arrays[k].values;
    const auto& y = sb.arrays[k].values;
    ASSERT_EQ(x.size(), y.size()) << what << " " << sa.arrays[k].name;
    if (x.empty()) continue;
    EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size() * sizeof(double)))
        << what << ": array " << sa.arrays[k].name << " differs";
  }
  ASSERT_EQ(sa.scalars.size(), sb.scalars.size());
  for (std::size_t k = 0; k < sa.scalars.size(); ++k)
    EXPECT_TRUE(same_bits(sa.scalars[k].second, sb.scalars[k].second))
        << what << ": scalar " << sa.scalars[k].first << " " << sa.scalars[k].second << " vs "
        << sb.scalars[k].second;
}

// Steps both paths, comparing dt and time after every step, then the whole state.
void same_sequence(const ProjectionConfig& c, int steps, const std::string& what) {
  auto host = make_projection_solver(with_dt(c, "host"));
  auto dev = make_projection_solver(with_dt(c, "device"));
  ASSERT_NE(host->plan().find("host (forced)"), std::string::npos) << host->plan();
  ASSERT_NE(dev->plan().find("device (forced)"), std::string::npos) << dev->plan();
  int changes = 0;
  double last = 0;
  for (int k = 1; k <= steps; ++k) {
    host->step();
    dev->step();
    ASSERT_TRUE(same_bits(host->dt(), dev->dt())) << what << ", step " << k << ": dt " << host->dt() << " vs " << dev->dt();
    ASSERT_TRUE(same_bits(host->time(), dev->time())) << what << ", step " << k;
    EXPECT_GT(dev->dt(), 0.0);
    if (host->dt() != last) ++changes;
    last = host->dt();
  }
  // The cases are chosen so that dt really adapts (not one fixed value throughout).
  if (c.time.dt <= 0) EXPECT_GT(changes, steps / 2) << what;
  expect_same_state(*host, *dev, what);
  const Diagnostics a = host->diagnostics(), b = dev->diagnostics();
  EXPECT_EQ(a.get("pressure_iterations"), b.get("pressure_iterations")) << what;
  EXPECT_TRUE(same_bits(a.get("gamma"), b.get("gamma"))) << what;
}

}  // namespace

TEST(ProjectionDeviceDt, CavityCentralSameSequence) {
  same_sequence(cavity(24, PressureSolverKind::RedBlackSOR), 80, "cavity, central, rbsor");
}

// gamma automatic: the device's gamma (1.2 dt max|u|/h) is read by the momentum kernel.
TEST(ProjectionDeviceDt, CavityAutoGammaSameSequence) {
  ProjectionConfig c = cavity(20, PressureSolverKind::ConjugateGradient);
  c.advection.gamma = -1;
  c.nu = 0.002;  // the convective limit sets dt
  c.time.cfl = 0.7;
  same_sequence(c, 60, "cavity, gamma auto, cg");
}

// Hybrid gamma with the cell-Peclet limit (nu_eff from gamma |u| h), obstacles, outflow.
TEST(ProjectionDeviceDt, ChannelBlockOutflowSameSequence) {
  ProjectionConfig c = channel(40, 12);
  c.advection.gamma = 0.4;
  same_sequence(c, 60, "channel, block, outflow, hybrid");
}

// A fixed dt: the maxima are reduced every 16th step only (the blow-up check).
TEST(ProjectionDeviceDt, FixedDtSameSequence) {
  ProjectionConfig c = cavity(16, PressureSolverKind::RedBlackSOR);
  c.time.dt = 2e-3;
  same_sequence(c, 40, "fixed dt");
}

TEST(ProjectionDeviceDt, DefaultOnOneRank) {
  auto s = make_projection_solver(cavity(8, PressureSolverKind::RedBlackSOR));
  EXPECT_NE(s->plan().find("dt             device:"), std::string::npos) << s->plan();
}

// The run loop with t_end and a time callback: the same steps, the last one landing
// on t_end, the callbacks at the same steps and times.
TEST(ProjectionDeviceDt, RunLoopLandsOnTEndAlike) {
  std::vector<std::vector<double>> seen(2);
  std::vector<RunReport> reports;
  for (int k = 0; k < 2; ++k) {
    ProjectionConfig c = with_dt(cavity(16, PressureSolverKind::RedBlackSOR), k == 0 ? "host" : "device");
    RunLoop loop(make_projection_solver(c));
    StopConditions st;
    st.t_end = 0.37;
    loop.set_stop_conditions(st);
    loop.every_time(0.05, [&, k] {
      seen[k].push_back(double(loop.solver().steps()));
      seen[k].push_back(loop.solver().time());
    });
    reports.push_back(loop.run());
    EXPECT_EQ(reports.back().reason, StopReason::TimeEnd);
    EXPECT_NEAR(loop.solver().time(), 0.37, 1e-12);
  }
  EXPECT_EQ(reports[0].steps, reports[1].steps);
  EXPECT_TRUE(same_bits(reports[0].sim_time, reports[1].sim_time));
  ASSERT_EQ(seen[0].size(), seen[1].size());
  EXPECT_GE(seen[0].size(), 14u);  // 7 callbacks at least
  for (std::size_t k = 0; k < seen[0].size(); ++k) EXPECT_TRUE(same_bits(seen[0][k], seen[1][k])) << k;
}

// A blow-up is reported at the same step, with the same time, on both paths.
TEST(ProjectionDeviceDt, BlowUpAtTheSameStep) {
  long step[2] = {0, 0};
  double time[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    ProjectionConfig c = with_dt(cavity(16, PressureSolverKind::RedBlackSOR), k == 0 ? "host" : "device");
    c.time.dt = 5.0;  // far beyond every stability limit
    c.nu = 1e-4;
    auto s = make_projection_solver(c);
    try {
      for (int n = 0; n < 200; ++n) s->step();
      FAIL() << "no blow-up detected";
    } catch (const BlowUp& b) {
      step[k] = b.step;
      time[k] = b.time;
      EXPECT_NE(std::string(b.what()).find("at step " + std::to_string(b.step)), std::string::npos) << b.what();
    }
  }
  EXPECT_GT(step[0], 0);
  EXPECT_EQ(step[0], step[1]);
  EXPECT_TRUE(same_bits(time[0], time[1]));
}

// A checkpoint taken in device mode restarts bit for bit (the device's time and dt
// slots come from the restored scalars).
TEST(ProjectionDeviceDt, RestartContinuesBitForBit) {
  const ProjectionConfig c = cavity(16, PressureSolverKind::RedBlackSOR);
  auto a = make_projection_solver(c);
  for (int k = 0; k < 20; ++k) a->step();
  const SolverState mid = a->save_state();
  for (int k = 0; k < 20; ++k) a->step();
  auto b = make_projection_solver(c);
  b->restore_state(mid);
  EXPECT_TRUE(same_bits(b->time(), mid.scalar("time")));
  for (int k = 0; k < 20; ++k) b->step();
  expect_same_state(*a, *b, "restart");
}

// A member leaves a batch (which steps it with the host's dt) and goes on in device
// mode exactly as if it had never been batched.
TEST(ProjectionDeviceDt, BackFromABatchBitForBit) {
  const ProjectionConfig c = cavity(16, PressureSolverKind::RedBlackSOR);
  ProjectionConfig other = c;
  other.nu = 0.02;
  auto alone = make_projection_solver(c);
  for (int k = 0; k < 30; ++k) alone->step();

  std::vector<std::unique_ptr<RunLoop>> loops;
  std::vector<RunLoop*> ptrs;
  for (const ProjectionConfig* x : std::vector<const ProjectionConfig*>{&c, &other}) {
    loops.push_back(std::make_unique<RunLoop>(make_projection_solver(*x)));
    StopConditions st;
    st.max_steps = 15;
    loops.back()->set_stop_conditions(st);
    ptrs.push_back(loops.back().get());
  }
  {
    BatchRun run(ptrs, BatchOptions{});
    const BatchReport rep = run.run();
    EXPECT_TRUE(rep.batched);
  }
  Solver& member = loops[0]->solver();
  ASSERT_EQ(member.steps(), 15);
  for (int k = 0; k < 15; ++k) member.step();
  expect_same_state(*alone, member, "batch, then alone");
}

// kernels.pressure_stop = "device" (dt on the device in both) against "host": the
// same sweeps, residuals and states; the singular cavity removes its mean on the way.
TEST(ProjectionDeviceDt, PressureStopOnTheDeviceSameAsHost) {
  for (int which = 0; which < 2; ++which) {
    const ProjectionConfig c = which == 0 ? cavity(24, PressureSolverKind::RedBlackSOR) : channel(40, 12);
    ProjectionConfig h = c;
    h.kernels["pressure_stop"] = "host";
    auto a = make_projection_solver(h);
    auto b = make_projection_solver(c);
    EXPECT_NE(a->plan().find("pressure stop on the host"), std::string::npos) << a->plan();
    EXPECT_NE(b->plan().find("pressure stop on the device; direct launches"), std::string::npos) << b->plan();
    // The cavity (no outflow) removes the rhs's mean: on the device path inside the
    // SOR's first reduction (SubtractFluidMeanSquared), two launches fewer, the same bits.
    const char* folded = "the rhs's mean removed in the pressure solve's first reduction";
    EXPECT_EQ(b->plan().find(folded) != std::string::npos, which == 0) << b->plan();
    EXPECT_EQ(a->plan().find(folded), std::string::npos) << a->plan();
    long sweeps = 0;
    for (int k = 1; k <= 50; ++k) {
      a->step();
      b->step();
      const Diagnostics da = a->diagnostics(), db = b->diagnostics();
      ASSERT_EQ(da.get("pressure_iterations"), db.get("pressure_iterations")) << "case " << which << ", step " << k;
      ASSERT_TRUE(same_bits(da.get("pressure_residual"), db.get("pressure_residual"))) << "case " << which;
      sweeps += long(da.get("pressure_iterations"));
    }
    EXPECT_GT(sweeps, 50 * 5);  // the solves iterate (and stop at checks)
    expect_same_state(*a, *b, which == 0 ? "cavity" : "channel");
  }
}
