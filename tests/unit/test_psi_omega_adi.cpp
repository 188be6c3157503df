// Peaceman-Rachford ADI in the psi_omega model (time = { scheme = "adi" }): second
// order in time on an exact solution, the same steady cavity as the explicit scheme
// with a time step far beyond the explicit diffusion limit, and its kernel plan.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "backend/cpu/cpu_exec.hpp"
#include "core/error.hpp"
#include "linalg/tridiagonal/solve_cpu.hpp"
#include "models/psi_omega/psi_omega_setup.hpp"
#include "models/psi_omega/psi_omega_solver.hpp"

using namespace flowlua;
using namespace flowlua::psi_omega;

namespace {

PsiOmegaConfig box(int nx, int ny, double nu) {
  PsiOmegaConfig c;
  c.grid = Grid::make(nx, ny, 1, 1);
  c.nu = nu;
  for (Side s : kSides) {
    int n = (s == Side::Left || s == Side::Right) ? ny + 1 : nx + 1;
    c.boundaries[int(s)].kind = BoundaryKind::Dirichlet;
    c.boundaries[int(s)].normal.assign(n, 0.0);
    c.boundaries[int(s)].tangential.assign(n, 0.0);
  }
  c.pressure.solver = PressureSolverKind::ConjugateGradient;
  c.pressure.tol = 1e-10;
  return c;
}

// Heat diffusion in a box at rest, T = 0 on the walls, T0 = sin(pi x) sin(pi y): the
// discrete solution decays as exp(-kappa L t) with L the five-point Laplacian's
// eigenvalue, so the error against it is the time error alone. Returns it at t = 0.5.
double decay_error(double dt) {
  const int N = 16;
  PsiOmegaConfig c = box(N, N, 0.1);
  c.heat.enabled = true;
  c.heat.kappa = 0.1;
  for (Side s : kSides) {
    c.boundaries[int(s)].T.kind = ScalarCondition::Kind::Dirichlet;
    c.boundaries[int(s)].T.values.assign(N + 1, 0.0);
  }
  const double pi = 3.14159265358979323846, h = 1.0 / N;
  c.heat.T0.assign((N + 1) * (N + 1), 0.0);
  for (int j = 0; j <= N; ++j)
    for (int i = 0; i <= N; ++i) c.heat.T0[j * (N + 1) + i] = std::sin(pi * i * h) * std::sin(pi * j * h);
  c.time.dt = dt;
  c.time.scheme = TimeScheme::Adi;
  PsiOmegaSolver<CpuExec, double> s(c);
  const int steps = int(std::lround(0.5 / dt));
  for (int k = 0; k < steps; ++k) s.step();
  const double L = 2 * 4 / (h * h) * std::pow(std::sin(pi * h / 2), 2);
  const double g = std::exp(-c.heat.kappa * L * s.time());
  const HostNodes hn = s.host_nodes();
  double err = 0;
  for (int j = 0; j <= N; ++j)
    for (int i = 0; i <= N; ++i) err = std::max(err, std::abs(hn.T[j * (N + 1) + i] - g * c.heat.T0[j * (N + 1) + i]));
  return err;
}

}  // namespace

TEST(PsiOmegaAdi, SecondOrderInTime) {
  const double e1 = decay_error(0.05), e2 = decay_error(0.025), e3 = decay_error(0.0125);
  EXPECT_GT(e1, 1e-5);  // not exact by accident
  EXPECT_NEAR(e1 / e2, 4, 0.4) << e1 << " " << e2;
  EXPECT_NEAR(e2 / e3, 4, 0.4) << e2 << " " << e3;
}

// The lid-driven cavity at Re = 10 on 32^2 cells: ADI with dt = 20 times the explicit
// diffusion limit h^2 / (4 nu) reaches the steady state the explicit scheme reaches.
TEST(PsiOmegaAdi, SameSteadyCavityAsExplicitBeyondDiffusionLimit) {
  const int N = 32;
  auto cavity = [&](TimeScheme scheme) {
    PsiOmegaConfig c = box(N, N, 0.1);
    c.boundaries[int(Side::Top)].tangential.assign(N + 1, 1.0);
    c.time.scheme = scheme;
    c.time.steady = 1e-6;
    if (scheme == TimeScheme::Adi) c.time.dt = 20 * (1.0 / (N * N)) / (4 * c.nu);
    return c;
  };
  PsiOmegaSolver<CpuExec, double> ex(cavity(TimeScheme::Explicit)), adi(cavity(TimeScheme::Adi));
  // Steady: the vorticity changes by less than 1e-6 per time unit over one step.
  auto run = [](PsiOmegaSolver<CpuExec, double>& s) {
    std::vector<double> before = s.field("vorticity").values;
    for (int k = 0; k < 20000; ++k) {
      s.step();
      std::vector<double> now = s.field("vorticity").values;
      double rate = 0;
      for (std::size_t n = 0; n < now.size(); ++n) rate = std::max(rate, std::abs(now[n] - before[n]) / s.dt());
      if (k > 5 && rate < 1e-6) return k + 1;
      before.swap(now);
    }
    return -1;
  };
  const int n_ex = run(ex), n_adi = run(adi);
  ASSERT_GT(n_ex, 0);
  ASSERT_GT(n_adi, 0);
  EXPECT_LT(n_adi * 5, n_ex) << "ADI steps " << n_adi << ", explicit " << n_ex;
  EXPECT_GT(adi.dt(), 10 * ex.dt());
  for (const char* f : {"u", "v", "vorticity"}) {
    const FieldSnapshot a = adi.field(f), b = ex.field(f);
    double diff = 0, scale = 0;
    for (std::size_t k = 0; k < a.values.size(); ++k) {
      diff = std::max(diff, std::abs(a.values[k] - b.values[k]));
      scale = std::max(scale, std::abs(b.values[k]));
    }
    EXPECT_LT(diff / scale, 1e-3) << f;
  }
}

TEST(PsiOmegaAdi, PlanNamesTheLineSolvers) {
  PsiOmegaConfig c = box(16, 12, 0.1);
  c.time.scheme = TimeScheme::Adi;
  PsiOmegaSolver<CpuExec, float> s(c);
  EXPECT_NE(s.plan().find("lines_x        thomas"), std::string::npos) << s.plan();
  EXPECT_NE(s.plan().find("lines_y        thomas"), std::string::npos) << s.plan();
  EXPECT_NE(s.plan().find("Peaceman-Rachford"), std::string::npos) << s.plan();
  c.kernels["transport"] = "central";  // no such stage with ADI
  EXPECT_THROW((PsiOmegaSolver<CpuExec, float>(c)), CaseError);
  c.kernels.clear();
  c.psi_omega.advection = ScalarAdvection::Upwind2;
  EXPECT_THROW((PsiOmegaSolver<CpuExec, float>(c)), CaseError);
}

namespace {

// psi after `steps` explicit steps of a config, for comparing stream-function solvers.
std::vector<double> psi_after(PsiOmegaConfig c, PressureSolverKind solver, int steps) {
  c.pressure.solver = solver;
  c.pressure.tol = 1e-12;
  c.pressure.max_iter = 100000;
  PsiOmegaSolver<CpuExec, double> s(c);
  for (int k = 0; k < steps; ++k) s.step();
  return s.host_nodes().psi;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b, double* scale = nullptr) {
  double d = 0, m = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k])), m = std::max(m, std::abs(b[k]));
  if (scale) *scale = m;
  return d;
}

}  // namespace

// pressure.solver = 'adi' (stream_lines.hpp) solves the same -lap psi = w as conjugate
// gradients: a cavity (Dirichlet ring) on a non-square grid, and a channel with an
// inflow and an outflow side (dpsi/dn = 0 folded into the last row of each line).
TEST(PsiOmegaAdi, StreamLineRelaxationMatchesConjugateGradients) {
  PsiOmegaConfig cav = box(24, 17, 0.05);
  cav.boundaries[int(Side::Top)].tangential.assign(25, 1.0);
  double scale = 0;
  const std::vector<double> p_lines = psi_after(cav, PressureSolverKind::LineAdi, 30),
                            p_cg = psi_after(cav, PressureSolverKind::ConjugateGradient, 30);
  const double d1 = max_abs_diff(p_lines, p_cg, &scale);
  EXPECT_GT(scale, 1e-3);
  EXPECT_LT(d1, 1e-6 * scale) << d1 << " of " << scale;

  for (Side out : {Side::Right, Side::Top}) {
    const bool along_x = out == Side::Right;
    const int nx = 20, ny = 14;
    PsiOmegaConfig ch = box(nx, ny, 0.05);
    const Side in = along_x ? Side::Left : Side::Bottom;
    const int n_in = along_x ? ny + 1 : nx + 1;
    std::vector<double> profile(n_in);
    for (int k = 0; k < n_in; ++k) profile[k] = 4.0 * k / (n_in - 1) * (1 - double(k) / (n_in - 1));
    ch.boundaries[int(in)].normal = profile;
    ch.boundaries[int(out)] = SideCondition{};
    ch.boundaries[int(out)].kind = BoundaryKind::Outflow;
    const std::vector<double> q_lines = psi_after(ch, PressureSolverKind::LineAdi, 30),
                              q_cg = psi_after(ch, PressureSolverKind::ConjugateGradient, 30);
    const double d2 = max_abs_diff(q_lines, q_cg, &scale);
    EXPECT_GT(scale, 1e-2);
    EXPECT_LT(d2, 1e-6 * scale) << "outflow on side " << int(out) << ": " << d2 << " of " << scale;
  }
}
