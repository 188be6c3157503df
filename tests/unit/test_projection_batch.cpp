// flow.batch on the CPU (sim/batch.hpp, models/projection/projection_batch.hpp): a
// member of a batch ends with exactly the state (every array, bit for bit) and the
// step count, time and dt of the same case run alone, whatever the other members do:
// other viscosities, lid speeds, obstacles, SOR settings, stop conditions, a member
// that blows up. With dt = "shared" every member takes the smallest of their dts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "core/error.hpp"
#include "models/projection/projection_config.hpp"
#include "sim/batch.hpp"
#include "sim/run_loop.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int n, double nu, double lid) {
  ProjectionConfig c;
  c.grid = Grid::make(n, n, 1.0, 1.0);
  c.nu = nu;
  for (Side s : kSides) {
    auto& b = c.boundaries[int(s)];
    b.kind = BoundaryKind::Dirichlet;
    b.normal.assign(n, 0.0);
    b.tangential.assign(n, s == Side::Top ? lid : 0.0);
  }
  c.pressure.solver = PressureSolverKind::RedBlackSOR;
  c.pressure.omega = 1.7;
  c.pressure.tol = 1e-6;
  c.pressure.max_iter = 200;
  c.time.cfl = 0.5;
  c.backend = BackendChoice::Cpu;
  return c;
}

// A channel with outflow and a block whose left edge is at column `at`.
ProjectionConfig channel(int nx, int ny, int at, double nu) {
  ProjectionConfig c;
  c.grid = Grid::make(nx, ny, 4.0, 1.0);
  c.nu = nu;
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
    for (int i = at; i <= at + 3; ++i) c.solid[(i - 1) + (j - 1) * nx] = 1;
  c.pressure.tol = 1e-5;
  c.pressure.max_iter = 300;
  c.backend = BackendChoice::Cpu;
  return c;
}

std::unique_ptr<RunLoop> loop_of(const ProjectionConfig& c, long max_steps) {
  auto l = std::make_unique<RunLoop>(make_projection_solver(c));
  StopConditions st;
  st.max_steps = max_steps;
  l->set_stop_conditions(st);
  return l;
}

// Every array and scalar of the two states, bit for bit.
void expect_same_state(Solver& a, Solver& b, const std::string& what) {
  const SolverState sa = a.save_state(), sb = b.save_state();
  ASSERT_EQ(sa.arrays.size(), sb.arrays.size()) << what;
  for (std::size_t k = 0; k < sa.arrays.size(); ++k) {
    const auto& x = sa.arrays[k].values;
    const auto& y = sb.arrays[k].values;
    ASSERT_EQ(x.size(), y.size()) << what << " " << sa.arrays[k].name;
    if (x.empty()) continue;  // memcmp of null pointers is undefined even for 0 bytes
    EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size() * sizeof(double)))
        << what << ": array " << sa.arrays[k].name << " differs";
  }
  ASSERT_EQ(sa.scalars.size(), sb.scalars.size());
  for (std::size_t k = 0; k < sa.scalars.size(); ++k)
    EXPECT_EQ(sa.scalars[k].second, sb.scalars[k].second) << what << ": scalar " << sa.scalars[k].first;
}

// Runs the configs as a batch and each alone; compares member by member.
BatchReport batch_equals_alone(const std::vector<ProjectionConfig>& cs, const std::vector<long>& steps,
                               bool expect_batched) {
  std::vector<std::unique_ptr<RunLoop>> batch;
  std::vector<RunLoop*> ptrs;
  for (std::size_t k = 0; k < cs.size(); ++k) {
    batch.push_back(loop_of(cs[k], steps[k]));
    ptrs.push_back(batch.back().get());
  }
  BatchReport rep;
  {
    BatchRun run(ptrs, BatchOptions{});
    rep = run.run();
  }
  EXPECT_EQ(rep.batched, expect_batched);
  for (std::size_t k = 0; k < cs.size(); ++k) {
    auto alone = loop_of(cs[k], steps[k]);
    RunReport r = alone->run();
    EXPECT_EQ(rep.members[k].steps, r.steps) << "member " << k;
    EXPECT_EQ(rep.members[k].reason, StopReason::MaxSteps) << "member " << k;
    EXPECT_EQ(batch[k]->solver().steps(), steps[k]);
    EXPECT_EQ(batch[k]->solver().time(), alone->solver().time()) << "member " << k;
    EXPECT_EQ(batch[k]->solver().dt(), alone->solver().dt()) << "member " << k;
    EXPECT_EQ(batch[k]->solver().diagnostics().get("pressure_iterations"),
              alone->solver().diagnostics().get("pressure_iterations"));
    expect_same_state(batch[k]->solver(), alone->solver(), "member " + std::to_string(k));
  }
  return rep;
}

}  // namespace

TEST(ProjectionBatch, CavitiesWithOwnViscosityAndLidEqualLoneRuns) {
  // 24^2: the members run side by side (one thread each); 72^2: in turn, where a lone
  // run's sums are split between threads.
  for (int n : {24, 72}) {
    std::vector<ProjectionConfig> cs = {cavity(n, 0.01, 1.0), cavity(n, 0.002, 1.0), cavity(n, 0.01, -0.5)};
    const long steps = n < 64 ? 30 : 6;
    batch_equals_alone(cs, {steps, steps, steps}, true);
  }
}

TEST(ProjectionBatch, MembersStopOnTheirOwnAndDropOut) {
  std::vector<ProjectionConfig> cs = {cavity(20, 0.01, 1.0), cavity(20, 0.005, 1.0), cavity(20, 0.02, 1.0)};
  BatchReport rep = batch_equals_alone(cs, {7, 40, 23}, true);
  EXPECT_EQ(rep.batch_steps, 40);
  EXPECT_EQ(rep.case_steps, 7 + 40 + 23);
}

TEST(ProjectionBatch, ObstaclesOutflowAndOwnSorSettings) {
  std::vector<ProjectionConfig> cs = {channel(40, 12, 8, 0.02), channel(40, 12, 14, 0.05), channel(40, 12, 20, 0.02)};
  batch_equals_alone(cs, {12, 12, 12}, true);
  // Other omega and tolerances still launch together; another check interval makes
  // the members' launch sequences differ: they then run in turn, with the same results.
  cs[1].pressure.omega = 1.5;
  cs[2].pressure.tol = 1e-4;
  batch_equals_alone(cs, {12, 12, 12}, true);
  cs[1].pressure.check_every = 3;
  batch_equals_alone(cs, {12, 12, 12}, false);
}

TEST(ProjectionBatch, OtherPressureSolversAndMixedStepMemberByMember) {
  std::vector<ProjectionConfig> cs = {cavity(16, 0.01, 1.0), cavity(16, 0.004, 1.0)};
  for (auto& c : cs) {
    c.pressure.solver = PressureSolverKind::ConjugateGradient;
    c.pressure.max_iter = 1000;
  }
  batch_equals_alone(cs, {15, 15}, true);
  // pressure.mixed (float fields, the pressure refined in double): also member by member.
  for (auto& c : cs) {
    c.pressure.solver = PressureSolverKind::RedBlackSOR;
    c.precision = Precision::Float;
    c.pressure_mixed = true;
  }
  batch_equals_alone(cs, {15, 15}, true);
}

TEST(ProjectionBatch, SharedDtIsTheSmallestOfTheMembers) {
  std::vector<ProjectionConfig> cs = {cavity(16, 0.01, 1.0), cavity(16, 0.01, 2.0), cavity(16, 0.05, 1.0)};
  std::vector<double> own;
  for (const auto& c : cs) {
    auto l = loop_of(c, 1);
    l->run();
    own.push_back(l->solver().dt());
  }
  std::vector<std::unique_ptr<RunLoop>> loops;
  std::vector<RunLoop*> ptrs;
  for (const auto& c : cs) {
    loops.push_back(loop_of(c, 1));
    ptrs.push_back(loops.back().get());
  }
  BatchOptions o;
  o.shared_dt = true;
  BatchRun(ptrs, o).run();
  const double smallest = std::min({own[0], own[1], own[2]});
  EXPECT_LT(smallest, std::max({own[0], own[1], own[2]}));  // the members' own dts differ
  for (auto& l : loops) EXPECT_EQ(l->solver().dt(), smallest);
}

TEST(ProjectionBatch, AMemberThatBlowsUpFailsAloneAndTheOthersGoOn) {
  std::vector<ProjectionConfig> cs = {cavity(16, 0.01, 1.0), cavity(16, 0.01, 1.0), cavity(16, 0.01, 1.0)};
  cs[1].time.dt = 5.0;  // far beyond the stability limit
  cs[1].boundaries[int(Side::Top)].tangential.assign(16, 50.0);
  std::vector<std::unique_ptr<RunLoop>> loops;
  std::vector<RunLoop*> ptrs;
  for (const auto& c : cs) {
    loops.push_back(loop_of(c, 60));
    ptrs.push_back(loops.back().get());
  }
  BatchReport rep = BatchRun(ptrs, BatchOptions{}).run();
  EXPECT_EQ(rep.members[1].reason, StopReason::Failed);
  // The same message, at the same step, as the member's case run alone.
  std::string alone_message;
  try {
    loop_of(cs[1], 60)->run();
  } catch (const BlowUp& e) {
    alone_message = e.what();
  }
  EXPECT_FALSE(alone_message.empty()) << "the case alone did not blow up";
  EXPECT_EQ(rep.members[1].error, alone_message);
  EXPECT_LT(rep.members[1].steps, 60);
  for (int k : {0, 2}) {
    EXPECT_EQ(rep.members[k].reason, StopReason::MaxSteps);
    auto alone = loop_of(cs[k], 60);
    alone->run();
    expect_same_state(loops[k]->solver(), alone->solver(), "member " + std::to_string(k));
  }
}

TEST(ProjectionBatch, RefusesMembersThatCannotStepTogether) {
  auto a = loop_of(cavity(16, 0.01, 1.0), 5);
  auto b = loop_of(cavity(20, 0.01, 1.0), 5);
  try {
    BatchRun run({a.get(), b.get()}, BatchOptions{});
    FAIL() << "a batch of 16^2 and 20^2 was accepted";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("simulation 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("20 x 20"), std::string::npos) << e.what();
  }
  EXPECT_THROW(BatchRun({a.get(), a.get()}, BatchOptions{}), CaseError);
  EXPECT_THROW(BatchRun({}, BatchOptions{}), CaseError);
}
