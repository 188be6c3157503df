// flow.batch on the CUDA backend (models/projection/projection_batch.hpp): each stage
// one launch for all members (grid z), the members' own nu, lid, obstacles and stop
// conditions. A member must equal the same case run alone on CUDA to round-off (the
// batched sums add in another order; the fused sweeps add their residuals with
// atomics), and the CPU's lone run and CPU batch likewise. By default the batch steps
// with dt and the SOR stop on the device, captured as a CUDA graph
// (projection_batch_resident.hpp); the host path (kernels.dt = "host") is held to the
// same. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "models/projection/projection_config.hpp"
#include "sim/batch.hpp"
#include "sim/run_loop.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

ProjectionConfig cavity(int n, double nu, double lid, Precision p) {
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
  c.pressure.tol = 1e-8;
  c.pressure.max_iter = 400;
  c.time.cfl = 0.5;
  c.precision = p;
  c.backend = BackendChoice::Cuda;
  return c;
}

std::unique_ptr<RunLoop> loop_of(const ProjectionConfig& c, long steps) {
  auto l = std::make_unique<RunLoop>(make_projection_solver(c));
  StopConditions st;
  st.max_steps = steps;
  l->set_stop_conditions(st);
  return l;
}

// Largest difference of u, v, p relative to the field's largest value.
double field_difference(Solver& a, Solver& b) {
  double worst = 0;
  for (const char* name : {"u", "v", "p"}) {
    const FieldSnapshot fa = a.field(name), fb = b.field(name);
    double scale = 1e-300, d = 0;
    for (int j = 1; j <= fa.ny(); ++j)
      for (int i = 1; i <= fa.nx(); ++i) {
        scale = std::max(scale, std::abs(fb.get(i, j)));
        d = std::max(d, std::abs(fa.get(i, j) - fb.get(i, j)));
      }
    worst = std::max(worst, d / scale);
  }
  return worst;
}

// kernels.dt as given: "device" (the default) takes the batch's device path.
ProjectionConfig with_dt(ProjectionConfig c, const char* where) {
  c.kernels["dt"] = where;
  return c;
}

void batch_against_alone(Precision p, double tol) {
  // 64 members of 64^2 (the study size of issue 12, fewer members) with their own
  // viscosity and lid speed; a third of them stop early.
  const int members = 64;
  std::vector<ProjectionConfig> cs;
  std::vector<long> steps;
  for (int k = 0; k < members; ++k) {
    cs.push_back(cavity(64, 0.002 + 0.0005 * k, k % 2 ? 1.0 : -0.7, p));
    steps.push_back(k % 3 == 0 ? 20 : 50);
  }
  std::vector<std::unique_ptr<RunLoop>> loops;
  std::vector<RunLoop*> ptrs;
  for (int k = 0; k < members; ++k) {
    loops.push_back(loop_of(cs[k], steps[k]));
    ptrs.push_back(loops.back().get());
  }
  BatchReport rep = BatchRun(ptrs, BatchOptions{}).run();
  EXPECT_TRUE(rep.batched);
  // dt and the SOR stop on the device, the steps replayed from CUDA graphs (the SOR
  // bodies a conditional while node: max_iter 400 is many bodies).
  EXPECT_EQ(rep.path, "dt on the device, graph");
  for (int k : {0, 1, 2, 31, 62, 63}) {
    EXPECT_EQ(loops[k]->solver().steps(), steps[k]);
    auto gpu = loop_of(cs[k], steps[k]);
    gpu->run();
    ProjectionConfig cpu_c = cs[k];
    cpu_c.backend = BackendChoice::Cpu;
    auto cpu = loop_of(cpu_c, steps[k]);
    cpu->run();
    const double dg = field_difference(loops[k]->solver(), gpu->solver());
    const double dc = field_difference(loops[k]->solver(), cpu->solver());
    EXPECT_LE(dg, tol) << "member " << k << ": batch vs CUDA alone";
    EXPECT_LE(dc, tol) << "member " << k << ": batch vs CPU alone";
    EXPECT_NEAR(loops[k]->solver().time(), gpu->solver().time(), tol * gpu->solver().time());
  }
}

}  // namespace

TEST(CudaBatch, MembersEqualLoneRunsDouble) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  batch_against_alone(Precision::Double, 1e-6);  // an SOR stop one check later moves p by ~tol
}

TEST(CudaBatch, MembersEqualLoneRunsFloat) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  batch_against_alone(Precision::Float, 2e-4);
}

namespace {

std::vector<std::unique_ptr<RunLoop>> run_batch(const std::vector<ProjectionConfig>& cs, const std::vector<long>& steps,
                                                bool shared, BatchReport* rep,
                                                std::vector<std::vector<double>>* dts = nullptr) {
  std::vector<std::unique_ptr<RunLoop>> loops;
  std::vector<RunLoop*> ptrs;
  if (dts) dts->assign(cs.size(), {});
  for (std::size_t k = 0; k < cs.size(); ++k) {
    loops.push_back(loop_of(cs[k], steps[k]));
    RunLoop& l = *loops.back();
    if (dts) {
      std::vector<double>& log = (*dts)[k];
      l.every_steps(1, [&l, &log] { log.push_back(l.solver().dt()); });
    }
    ptrs.push_back(&l);
  }
  BatchOptions o;
  o.shared_dt = shared;
  *rep = BatchRun(ptrs, o).run();
  return loops;
}

// The harness's members (5 sweeps a step, never converged: one body of sweeps, no
// while node) and converging ones (many bodies), each batch on the device path against
// the same batch on the CPU and against the host path on CUDA.
void device_batch_against_cpu_batch(Precision p, int max_iter, double tol_sor, double tol) {
  const int members = 24;
  std::vector<ProjectionConfig> cs;
  std::vector<long> steps;
  for (int k = 0; k < members; ++k) {
    cs.push_back(cavity(64, 0.001 * (1 + 0.01 * k), k % 3 ? 1.0 : -1.0, p));
    cs.back().pressure.omega = 1.8;
    cs.back().pressure.max_iter = max_iter;
    cs.back().pressure.check_every = 5;
    cs.back().pressure.tol = tol_sor;
    steps.push_back(k % 4 == 0 ? 17 : 40);  // some drop out after 17 steps
  }
  BatchReport dev_rep, host_rep, cpu_rep;
  std::vector<std::vector<double>> dev_dt, cpu_dt;
  auto dev = run_batch(cs, steps, false, &dev_rep, &dev_dt);
  EXPECT_EQ(dev_rep.path, "dt on the device, graph");
  EXPECT_TRUE(dev_rep.batched);
  std::vector<ProjectionConfig> hs = cs, cpus = cs;
  for (auto& c : hs) c = with_dt(c, "host");
  for (auto& c : cpus) c.backend = BackendChoice::Cpu;
  auto host = run_batch(hs, steps, false, &host_rep);
  EXPECT_EQ(host_rep.path.rfind("dt on the host", 0), 0u) << host_rep.path;
  auto cpu = run_batch(cpus, steps, false, &cpu_rep, &cpu_dt);
  EXPECT_EQ(cpu_rep.path, "dt on the device, direct launches");
  for (int k = 0; k < members; ++k) {
    Solver& d = dev[k]->solver();
    EXPECT_EQ(d.steps(), steps[k]) << "member " << k;
    EXPECT_EQ(dev_rep.members[k].reason, StopReason::MaxSteps) << "member " << k;
    EXPECT_LE(field_difference(d, cpu[k]->solver()), tol) << "member " << k << ": CUDA batch vs CPU batch";
    EXPECT_LE(field_difference(d, host[k]->solver()), tol) << "member " << k << ": device path vs host path";
    ASSERT_EQ(dev_dt[k].size(), cpu_dt[k].size()) << "member " << k;
    for (std::size_t s = 0; s < dev_dt[k].size(); ++s)
      ASSERT_NEAR(dev_dt[k][s], cpu_dt[k][s], tol * cpu_dt[k][s]) << "member " << k << ", step " << s + 1;
    EXPECT_NEAR(d.time(), host[k]->solver().time(), tol * d.time()) << "member " << k;
    if (max_iter == 5) EXPECT_EQ(d.diagnostics().get("pressure_iterations"), 5) << "member " << k;
  }
}

}  // namespace

TEST(CudaBatch, DevicePathEqualsCpuBatchOneBodyDouble) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  device_batch_against_cpu_batch(Precision::Double, 5, 1e-300, 1e-9);
}

TEST(CudaBatch, DevicePathEqualsCpuBatchOneBodyFloat) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  device_batch_against_cpu_batch(Precision::Float, 5, 1e-300, 2e-4);
}

TEST(CudaBatch, DevicePathEqualsCpuBatchConvergingDouble) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  device_batch_against_cpu_batch(Precision::Double, 300, 1e-7, 1e-6);  // a stop one check later moves p by ~tol
}

// dt = "shared" on the device path: the same dts (to round-off) as the host path and
// the CPU, every member landing on its own t_end.
TEST(CudaBatch, SharedDtOnTheDevice) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  std::vector<ProjectionConfig> cs;
  for (int k = 0; k < 12; ++k) cs.push_back(cavity(64, 0.002 + 0.001 * k, 1.0 + 0.1 * k, Precision::Double));
  auto with_t_end = [](std::vector<std::unique_ptr<RunLoop>>& loops, int k) {
    StopConditions st;
    st.t_end = 0.02 + 0.002 * k;
    loops[k]->set_stop_conditions(st);
  };
  std::vector<std::vector<double>> dts[3];
  std::vector<std::unique_ptr<RunLoop>> runs[3];
  for (int path = 0; path < 3; ++path) {  // CUDA device path, CUDA host path, CPU
    std::vector<ProjectionConfig> x = cs;
    for (auto& c : x) {
      if (path == 1) c = with_dt(c, "host");
      if (path == 2) c.backend = BackendChoice::Cpu;
    }
    std::vector<RunLoop*> ptrs;
    dts[path].resize(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) {
      runs[path].push_back(loop_of(x[k], -1));
      with_t_end(runs[path], int(k));
      RunLoop& l = *runs[path].back();
      std::vector<double>& log = dts[path][k];
      l.every_steps(1, [&l, &log] { log.push_back(l.solver().dt()); });
      ptrs.push_back(&l);
    }
    BatchOptions o;
    o.shared_dt = true;
    const BatchReport rep = BatchRun(ptrs, o).run();
    for (std::size_t k = 0; k < x.size(); ++k) EXPECT_EQ(rep.members[k].reason, StopReason::TimeEnd);
  }
  for (std::size_t k = 0; k < cs.size(); ++k)
    for (int path : {1, 2}) {
      ASSERT_EQ(dts[0][k].size(), dts[path][k].size()) << "member " << k << " path " << path;
      for (std::size_t s = 0; s < dts[0][k].size(); ++s)
        ASSERT_NEAR(dts[0][k][s], dts[path][k][s], 1e-7 * dts[path][k][s]) << "member " << k << ", step " << s + 1;
      EXPECT_NEAR(runs[0][k]->solver().time(), 0.02 + 0.002 * k, 1e-12);
      EXPECT_LE(field_difference(runs[0][k]->solver(), runs[path][k]->solver()), 1e-6) << "member " << k;
    }
}

// A member that blows up fails alone on the device path too (its report shows it a
// step or two late); the others finish as alone.
TEST(CudaBatch, AMemberThatBlowsUpFailsAloneOnTheDevicePath) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  std::vector<ProjectionConfig> cs(3, cavity(32, 0.01, 1.0, Precision::Double));
  cs[1].time.dt = 5.0;
  cs[1].boundaries[int(Side::Top)].tangential.assign(32, 50.0);
  BatchReport rep;
  auto loops = run_batch(cs, {30, 30, 30}, false, &rep);
  EXPECT_EQ(rep.members[1].reason, StopReason::Failed);
  EXPECT_FALSE(rep.members[1].error.empty());
  for (int k : {0, 2}) {
    EXPECT_EQ(rep.members[k].reason, StopReason::MaxSteps);
    auto alone = loop_of(cs[k], 30);
    alone->run();
    EXPECT_LE(field_difference(loops[k]->solver(), alone->solver()), 1e-6) << "member " << k;
  }
}
