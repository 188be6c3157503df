// flow.batch on the CUDA backend (models/projection/projection_batch.hpp): each stage
// one launch for all members (grid z), the members' own nu, lid, obstacles and stop
// conditions. A member must equal the same case run alone on CUDA to round-off (the
// batched sums add in another order; the batch sweeps with the two-colour kernels),
// and the CPU's lone run likewise. Skipped without a CUDA device.
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
