// The fractional-step model (seed 004) against the exact decaying 2D Taylor-Green
// vortex u = sin x cos y e^{-2 nu t}, v = -cos x sin y e^{-2 nu t} on [0, 2 pi]^2:
// second order in space (error ratio 4 +- 0.3 per halving of h and dt together) and
// in time (ratio of successive differences 4 +- 0.3 per halving of dt), for QUICK and
// central fluxes; float against double; the kernel variants bit for bit; the seed's
// FFT-preconditioned CG converging in one iteration in the periodic box.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "backend/cpu/cpu_exec.hpp"
#include "models/fractional_step/fs_solver.hpp"

using namespace flowlua;
using flowlua::fractional_step::FractionalStepSolver;

namespace {

constexpr double kPi = 3.14159265358979323846;

FractionalStepConfig taylor_green(int n, double nu, double dt, FsAdvection adv) {
  FractionalStepConfig c;
  c.grid = Grid::make(n, n, 2 * kPi, 2 * kPi);
  c.nu = nu;
  c.time.dt = dt;
  c.advection = adv;
  c.backend = BackendChoice::Cpu;
  for (Side s : kSides) c.boundaries[int(s)].kind = BoundaryKind::Periodic;
  const Grid& g = c.grid;
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  for (int j = 1; j <= n; ++j)
    for (int i = 1; i <= n; ++i) {
      c.u0[g.at(i, j)] = std::sin(i * g.dx) * std::cos((j - 0.5) * g.dy);
      c.v0[g.at(i, j)] = -std::cos((i - 0.5) * g.dx) * std::sin(j * g.dy);
    }
  return c;
}

struct Faces {
  std::vector<double> u, v;
};

template <class Real>
Faces run(const FractionalStepConfig& c, double t_end) {
  FractionalStepSolver<CpuExec, Real> s(c);
  const long steps = std::lround(t_end / c.time.dt);
  for (long k = 0; k < steps; ++k) s.step();
  SolverState st = s.save_state();
  return {st.array("u").values, st.array("v").values};
}

// Max error on the interior faces against the exact solution at t.
double error_vs_exact(const FractionalStepConfig& c, const Faces& f, double t) {
  const Grid& g = c.grid;
  const double decay = std::exp(-2 * c.nu * t);
  double e = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      const double ue = std::sin(i * g.dx) * std::cos((j - 0.5) * g.dy) * decay;
      const double ve = -std::cos((i - 0.5) * g.dx) * std::sin(j * g.dy) * decay;
      e = std::max({e, std::abs(f.u[g.at(i, j)] - ue), std::abs(f.v[g.at(i, j)] - ve)});
    }
  return e;
}

double max_diff(const Faces& a, const Faces& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.u.size(); ++k) d = std::max({d, std::abs(a.u[k] - b.u[k]), std::abs(a.v[k] - b.v[k])});
  return d;
}

}  // namespace

// h and dt halved together (dt = 0.4 h, a CFL number of 0.4): both error terms are
// O(h^2), so the error falls by 4 per halving (central fluxes; QUICK faster, below). nu is small enough that dt stays under
// AB2's diffusive limit h^2 / (8 nu) on every grid.
TEST(FractionalStep, TaylorGreenSecondOrderInSpace) {
  for (FsAdvection adv : {FsAdvection::Quick, FsAdvection::Central}) {
    const double nu = 0.01, t_end = 1.0;
    double e[3];
    for (int k = 0; k < 3; ++k) {
      const int n = 16 << k;
      const double h = 2 * kPi / n;
      const int steps = int(std::ceil(t_end / (0.4 * h)));
      FractionalStepConfig c = taylor_green(n, nu, t_end / steps, adv);
      e[k] = error_vs_exact(c, run<double>(c, t_end), t_end);
    }
    std::printf("  %s: errors %.3e %.3e %.3e, ratios %.3f %.3f\n", fs_advection_name(adv), e[0], e[1], e[2],
                e[0] / e[1], e[1] / e[2]);
    if (adv == FsAdvection::Central) {
      EXPECT_NEAR(e[0] / e[1], 4.0, 0.3);
      EXPECT_NEAR(e[1] / e[2], 4.0, 0.3);
    } else {
      // QUICK's upwind error is O(h^3) with a large constant: on these grids it
      // dominates its O(h^2) part, which is smaller than central's, and the ratio is
      // about 8-9 (measured: 2.4e-3, 3.0e-4, 3.3e-5; 3.5e-6 at 128^2). At least 2nd order.
      EXPECT_GT(e[0] / e[1], 3.7);
      EXPECT_GT(e[1] / e[2], 3.7);
    }
  }
}

// On one grid, dt halved: successive differences of the solution (the spatial error
// cancels) fall by 4 per halving: AB2 with its forward-Euler start is second order.
TEST(FractionalStep, TaylorGreenSecondOrderInTime) {
  for (FsAdvection adv : {FsAdvection::Quick, FsAdvection::Central}) {
    const double nu = 0.01, t_end = 1.0;
    Faces f[4];
    for (int k = 0; k < 4; ++k) {
      FractionalStepConfig c = taylor_green(32, nu, 0.1 / (1 << k), adv);
      f[k] = run<double>(c, t_end);
    }
    const double d0 = max_diff(f[0], f[1]), d1 = max_diff(f[1], f[2]), d2 = max_diff(f[2], f[3]);
    std::printf("  %s: differences %.3e %.3e %.3e, ratios %.3f %.3f\n", fs_advection_name(adv), d0, d1, d2, d0 / d1,
                d1 / d2);
    EXPECT_NEAR(d1 / d2, 4.0, 0.3) << fs_advection_name(adv);
    EXPECT_NEAR(d0 / d1, 4.0, 0.5) << fs_advection_name(adv);
  }
}

// Float rounds each step at about 6e-8 of the amplitude; 80 steps of a decaying
// (dissipative) flow keep the difference far below 1e-5.
TEST(FractionalStep, FloatAgreesWithDouble) {
  FractionalStepConfig c = taylor_green(32, 0.02, 0.02, FsAdvection::Quick);
  const Faces d = run<double>(c, 1.6), f = run<float>(c, 1.6);
  const double diff = max_diff(d, f);
  std::printf("  float vs double after 80 steps: %.3e\n", diff);
  EXPECT_LT(diff, 1e-5);
  EXPECT_GT(error_vs_exact(c, d, 1.6), diff);  // the discretisation error dominates
}

// The velocity stays discretely divergence-free, and the seed's pcg with the FFT
// preconditioner converges in one iteration and agrees with the direct FFT solve.
TEST(FractionalStep, PcgWithFftPreconditionerConvergesInOneIteration) {
  FractionalStepConfig c = taylor_green(32, 0.02, 0.05, FsAdvection::Quick);
  // A perturbation that is not divergence-free, so the Poisson problem is not trivial.
  for (std::size_t k = 0; k < c.u0.size(); ++k) c.u0[k] += 0.1 * std::sin(0.37 * double(k));
  FractionalStepConfig p = c;
  p.pressure.solver = PressureSolverKind::PreconditionedCG;
  p.pressure.preconditioner = PreconditionerKind::FFT;
  p.pressure.tol = 1e-10;
  FractionalStepSolver<CpuExec, double> a(c), b(p);
  for (int k = 0; k < 10; ++k) {
    a.step();
    b.step();
    EXPECT_EQ(b.diagnostics().get("pressure_iterations"), 1);
    EXPECT_LT(a.diagnostics().get("max_divergence"), 1e-10);
  }
  const SolverState sa = a.save_state(), sb = b.save_state();
  double d = 0;
  for (std::size_t k = 0; k < sa.array("u").values.size(); ++k)
    d = std::max(d, std::abs(sa.array("u").values[k] - sb.array("u").values[k]));
  EXPECT_LT(d, 1e-10);
}

TEST(FractionalStep, KernelVariantsAgreeBitForBit) {
  for (FsAdvection adv : {FsAdvection::Quick, FsAdvection::Central}) {
    FractionalStepConfig c = taylor_green(24, 0.01, 0.05, adv);
    FractionalStepConfig g = c;
    g.kernels["general"] = "true";
    FractionalStepSolver<CpuExec, double> a(c), b(g);
    EXPECT_EQ(a.kernel_plan().variant("momentum"), fs_advection_name(adv));
    EXPECT_EQ(b.kernel_plan().variant("momentum"), "general");
    for (int k = 0; k < 5; ++k) {
      a.step();
      b.step();
    }
    EXPECT_EQ(a.save_state().array("u").values, b.save_state().array("u").values);
  }
}

// QUICK's upwind part damps; central fluxes conserve the discrete kinetic energy of
// an inviscid flow (to AB2's small time error).
TEST(FractionalStep, QuickDissipatesWhereCentralConserves) {
  auto energy_loss = [](FsAdvection adv) {
    FractionalStepConfig c = taylor_green(16, 0.0, 0.002, adv);
    for (std::size_t k = 0; k < c.u0.size(); ++k) c.u0[k] += 0.3 * std::sin(1.3 * double(k));
    FractionalStepSolver<CpuExec, double> s(c);
    const double e0 = s.diagnostics().get("kinetic_energy");
    for (int k = 0; k < 100; ++k) s.step();
    return (e0 - s.diagnostics().get("kinetic_energy")) / e0;
  };
  const double quick = energy_loss(FsAdvection::Quick), central = energy_loss(FsAdvection::Central);
  std::printf("  relative energy loss in 100 inviscid steps: quick %.3e, central %.3e\n", quick, central);
  EXPECT_GT(quick, 0);
  EXPECT_LT(std::abs(central), 0.1 * quick);
}

// A fixed dt above AB2's diffusive limit would blow up: refused with the limit named.
TEST(FractionalStep, RefusesFixedDtAboveTheDiffusiveLimit) {
  FractionalStepConfig c = taylor_green(64, 0.05, 0.04, FsAdvection::Quick);  // limit h^2 / (8 nu) = 0.024
  try {
    FractionalStepSolver<CpuExec, double> s(c);
    FAIL() << "an unstable dt was accepted";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("diffusive stability limit"), std::string::npos) << e.what();
  }
}

// Walls on one side of an axis need them (or any non-periodic side) on the other.
TEST(FractionalStep, RefusesAHalfPeriodicAxis) {
  FractionalStepConfig c = taylor_green(16, 0.01, 0.01, FsAdvection::Quick);
  c.boundaries[int(Side::Bottom)].kind = BoundaryKind::Dirichlet;
  try {
    FractionalStepSolver<CpuExec, double> s(c);
    FAIL() << "a half-periodic axis was accepted";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("boundaries.top: periodic on one side of an axis needs periodic on the other"),
              std::string::npos)
        << e.what();
  }
}

// A restart continues AB2 where it stopped: with R^{n-1}, the previous dt and the step
// count restored, 4 + 6 steps give the same bits as 10 (adaptive dt, so dt_prev and
// the variable-step weights matter). Without the history the next step would be a
// forward-Euler one and differ.
TEST(FractionalStep, RestoredStateContinuesAb2BitForBit) {
  FractionalStepConfig c = taylor_green(24, 0.01, 0.0, FsAdvection::Quick);
  c.time.cfl = 0.5;
  for (std::size_t k = 0; k < c.u0.size(); ++k) c.u0[k] += 0.2 * std::sin(0.7 * double(k));
  FractionalStepSolver<CpuExec, double> whole(c), first(c);
  for (int k = 0; k < 10; ++k) whole.step();
  for (int k = 0; k < 4; ++k) first.step();
  SolverState saved = first.save_state();
  FractionalStepSolver<CpuExec, double> second(c);
  second.restore_state(saved);
  for (int k = 0; k < 6; ++k) second.step();
  EXPECT_EQ(second.steps(), 10);
  EXPECT_EQ(second.time(), whole.time());
  EXPECT_EQ(second.save_state().array("u").values, whole.save_state().array("u").values);
  // The history matters: zeroing it changes the result.
  for (auto& a : saved.arrays)
    if (a.name == "R_u" || a.name == "R_v") std::fill(a.values.begin(), a.values.end(), 0.0);
  FractionalStepSolver<CpuExec, double> no_history(c);
  no_history.restore_state(saved);
  for (int k = 0; k < 6; ++k) no_history.step();
  EXPECT_NE(no_history.save_state().array("u").values, whole.save_state().array("u").values);
}

// Crank-Nicolson in 2D (the same kernels as 3D): a shear mode u = sin y decays by
// exactly ((1 - a lam) / (1 + a lam))^steps, dt 20 times AB2's diffusive limit.
TEST(FractionalStep, CrankNicolsonDecaysAShearModeExactly) {
  FractionalStepConfig c = taylor_green(16, 0.1, 0.0, FsAdvection::Quick);
  const Grid& g = c.grid;
  for (int j = 0; j <= 17; ++j)
    for (int i = 0; i <= 17; ++i) {
      c.u0[g.at(i, j)] = std::sin((j - 0.5) * g.dy);
      c.v0[g.at(i, j)] = 0;
    }
  c.diffusion = FsDiffusion::CrankNicolson;
  c.time.dt = 20 / (4 * c.nu * (2 / (g.dx * g.dx)));
  FractionalStepSolver<CpuExec, double> s(c);
  for (int k = 0; k < 10; ++k) s.step();
  const double lam = std::pow(2 * std::sin(g.dy / 2) / g.dy, 2), a = 0.5 * c.nu * c.time.dt;
  const double decay = std::pow((1 - a * lam) / (1 + a * lam), 10);
  const auto u = s.save_state().array("u").values;
  double err = 0;
  for (int j = 1; j <= 16; ++j) err = std::max(err, std::abs(u[g.at(5, j)] - decay * std::sin((j - 0.5) * g.dy)));
  EXPECT_LT(err, 1e-10);
  // and explicit diffusion refuses that dt
  c.diffusion = FsDiffusion::Explicit;
  EXPECT_THROW((FractionalStepSolver<CpuExec, double>(c)), CaseError);
}
