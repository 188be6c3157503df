// The fractional-step model in 3D (seed 004's own dimension): a z-independent flow
// gives the 2D model's result (the third axis adds exact zeros, the FFT solve differs
// in rounding only); the kernel variants agree bit for bit (the wall-aware ones in a
// periodic box); a restart continues AB2 bit for bit; the 3D Taylor-Green vortex stays
// divergence free and mirror symmetric; a square duct relaxes to the series solution;
// walls are held by every pressure solver; the refusals name the key.
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

inline SideCondition side_of(BoundaryKind kind, const char* label) {
  SideCondition s;
  s.kind = kind;
  s.label = label;
  return s;
}
inline SideCondition periodic_side() { return side_of(BoundaryKind::Periodic, "periodic"); }
SideCondition inflow_side(int cells) {
  SideCondition s = side_of(BoundaryKind::Dirichlet, "inflow");
  s.normal.assign(std::size_t(cells), 1.0);
  return s;
}

FractionalStepConfig box3(int nx, int ny, int nz, double lx, double ly, double lz) {
  FractionalStepConfig c;
  c.dims = 3;
  c.grid3 = Grid3::make(nx, ny, nz, lx, ly, lz);
  c.grid = c.grid3.xy();
  c.backend = BackendChoice::Cpu;
  for (Side s : kSides3) c.boundaries3[int(s)] = periodic_side();
  const std::size_t n = c.grid3.size();
  c.u0.assign(n, 0.0);
  c.v0.assign(n, 0.0);
  c.w0.assign(n, 0.0);
  return c;
}

// u = sin x cos y cos z, v = -cos x sin y cos z, w = 0 (times cz: with cz = 0 the
// flow does not depend on z), plus an optional rough perturbation.
FractionalStepConfig taylor_green3(int n, double nu, double dt, FsAdvection adv, bool z_dependent,
                                   double rough = 0) {
  FractionalStepConfig c = box3(n, n, n, 2 * kPi, 2 * kPi, 2 * kPi);
  c.nu = nu;
  c.time.dt = dt;
  c.advection = adv;
  const Grid3& g = c.grid3;
  for (int k = 0; k <= n + 1; ++k)
    for (int j = 0; j <= n + 1; ++j)
      for (int i = 0; i <= n + 1; ++i) {
        const double cz = z_dependent ? std::cos((k - 0.5) * g.dz) : 1.0;
        const std::size_t at = g.at(i, j, k);
        c.u0[at] = std::sin(i * g.dx) * std::cos((j - 0.5) * g.dy) * cz + rough * std::sin(0.37 * double(at));
        c.v0[at] = -std::cos((i - 0.5) * g.dx) * std::sin(j * g.dy) * cz;
        c.w0[at] = rough * std::cos(0.71 * double(at));
      }
  return c;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

}  // namespace

// The 3D kernels on a flow without z dependence against the 2D model, face by face.
TEST(FractionalStep3d, ZIndependentFlowMatches2d) {
  for (FsAdvection adv : {FsAdvection::Quick, FsAdvection::Central}) {
    const int n = 16;
    FractionalStepConfig c3 = taylor_green3(n, 0.01, 0.02, adv, false);
    FractionalStepConfig c2;
    c2.grid = Grid::make(n, n, 2 * kPi, 2 * kPi);
    c2.nu = 0.01;
    c2.time.dt = 0.02;
    c2.advection = adv;
    c2.backend = BackendChoice::Cpu;
    for (Side s : kSides) c2.boundaries[int(s)].kind = BoundaryKind::Periodic;
    c2.u0.assign(c2.grid.size(), 0.0);
    c2.v0.assign(c2.grid.size(), 0.0);
    for (int j = 0; j <= n + 1; ++j)
      for (int i = 0; i <= n + 1; ++i) {
        c2.u0[c2.grid.at(i, j)] = c3.u0[c3.grid3.at(i, j, 1)];
        c2.v0[c2.grid.at(i, j)] = c3.v0[c3.grid3.at(i, j, 1)];
      }
    FractionalStepSolver<CpuExec, double, 3> s3(c3);
    FractionalStepSolver<CpuExec, double> s2(c2);
    for (int k = 0; k < 20; ++k) {
      s3.step();
      s2.step();
    }
    const auto u3 = s3.save_state().array("u").values, w3 = s3.save_state().array("w").values;
    const auto u2 = s2.save_state().array("u").values;
    double d = 0, wmax = 0;
    for (int kk = 1; kk <= n; ++kk)
      for (int j = 1; j <= n; ++j)
        for (int i = 1; i <= n; ++i) {
          d = std::max(d, std::abs(u3[c3.grid3.at(i, j, kk)] - u2[c2.grid.at(i, j)]));
          wmax = std::max(wmax, std::abs(w3[c3.grid3.at(i, j, kk)]));
        }
    std::printf("  %s: max |u_3D - u_2D| = %.3e, max |w| = %.3e\n", fs_advection_name(adv), d, wmax);
    EXPECT_LT(d, 1e-12);
    EXPECT_LT(wmax, 1e-14);
  }
}

// In a periodic box the wall-aware variants (quick_walls, central_walls, general) and
// the periodic ones compute the same bits.
TEST(FractionalStep3d, KernelVariantsAgreeBitForBit) {
  for (FsAdvection adv : {FsAdvection::Quick, FsAdvection::Central}) {
    FractionalStepConfig c = taylor_green3(12, 0.01, 0.02, adv, true, 0.1);
    FractionalStepConfig w = c, g = c;
    w.kernels["momentum"] = adv == FsAdvection::Quick ? "quick_walls" : "central_walls";
    w.kernels["rhs"] = "general";
    w.kernels["correction"] = "general";
    g.kernels["general"] = "true";
    FractionalStepSolver<CpuExec, double, 3> a(c), b(w), d(g);
    EXPECT_EQ(a.kernel_plan().variant("momentum"), fs_advection_name(adv));
    EXPECT_EQ(a.kernel_plan().variant("rhs"), "periodic");
    EXPECT_EQ(d.kernel_plan().variant("momentum"), "general");
    for (int k = 0; k < 4; ++k) {
      a.step();
      b.step();
      d.step();
    }
    for (const char* name : {"u", "v", "w"}) {
      EXPECT_EQ(a.save_state().array(name).values, b.save_state().array(name).values) << name;
      EXPECT_EQ(a.save_state().array(name).values, d.save_state().array(name).values) << name;
    }
  }
}

TEST(FractionalStep3d, RestoredStateContinuesAb2BitForBit) {
  FractionalStepConfig c = taylor_green3(12, 0.01, 0.0, FsAdvection::Quick, true, 0.1);
  c.time.cfl = 0.5;
  FractionalStepSolver<CpuExec, double, 3> whole(c), first(c);
  for (int k = 0; k < 6; ++k) whole.step();
  for (int k = 0; k < 2; ++k) first.step();
  FractionalStepSolver<CpuExec, double, 3> second(c);
  second.restore_state(first.save_state());
  for (int k = 0; k < 4; ++k) second.step();
  EXPECT_EQ(second.time(), whole.time());
  for (const char* name : {"u", "v", "w", "R_w"})
    EXPECT_EQ(second.save_state().array(name).values, whole.save_state().array(name).values) << name;
}

// The Taylor-Green vortex is symmetric under z -> -z (u, v even, w odd); the scheme
// keeps it to round-off, and the projection keeps div u at round-off.
TEST(FractionalStep3d, TaylorGreenStaysSymmetricAndDivergenceFree) {
  const int n = 16;
  FractionalStepConfig c = taylor_green3(n, 1.0 / 1600, 0.05, FsAdvection::Quick, true);
  FractionalStepSolver<CpuExec, double, 3> s(c);
  for (int k = 0; k < 20; ++k) s.step();
  const Diagnostics d = s.diagnostics();
  EXPECT_LT(d.get("max_divergence"), 1e-11);
  const Grid3& g = c.grid3;
  const auto u = s.save_state().array("u").values, w = s.save_state().array("w").values;
  double asym = 0, wmax = 0;
  // u(z) at cell centre k mirrors to n + 1 - k; w on front faces: w(k) = -w(n - k) (face n mirrors to face 0 = n)
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        asym = std::max(asym, std::abs(u[g.at(i, j, k)] - u[g.at(i, j, n + 1 - k)]));
        const int km = k == n ? n : n - k;
        asym = std::max(asym, std::abs(w[g.at(i, j, k)] + w[g.at(i, j, km)]));
        wmax = std::max(wmax, std::abs(w[g.at(i, j, k)]));
      }
  std::printf("  mirror asymmetry %.3e, max |w| %.3e (w grows from 0 by the nonlinear terms)\n", asym, wmax);
  EXPECT_GT(wmax, 1e-3);
  EXPECT_LT(asym, 1e-12);
}

// Walls: a square duct (walls in x and y, periodic in z) driven by a body force, every
// pressure solver; the wall faces stay at zero and the flow is axial.
TEST(FractionalStep3d, WallsHoldWithEveryPressureSolver) {
  for (PressureSolverKind kind : {PressureSolverKind::FFT, PressureSolverKind::Multigrid,
                                  PressureSolverKind::PreconditionedCG}) {
    FractionalStepConfig c = box3(8, 8, 4, 1, 1, 0.5);
    for (Side s : {Side::Left, Side::Right, Side::Bottom, Side::Top}) c.boundaries3[int(s)] = SideCondition{};
    c.nu = 1;
    c.force[2] = 1;
    c.time.cfl = 0.5;
    c.pressure.solver = kind;
    c.pressure.preconditioner = kind == PressureSolverKind::PreconditionedCG ? PreconditionerKind::Multigrid
                                                                             : PreconditionerKind::FFT;
    c.pressure.tol = 1e-10;
    // a rough transverse start, so the pressure has work to do
    for (std::size_t k = 0; k < c.u0.size(); ++k) c.u0[k] = 0.1 * std::sin(0.9 * double(k));
    FractionalStepSolver<CpuExec, double, 3> s(c);
    EXPECT_EQ(s.kernel_plan().variant("momentum"), "quick_walls");
    for (int k = 0; k < 200; ++k) s.step();
    const Grid3& g = c.grid3;
    const auto u = s.save_state().array("u").values, w = s.save_state().array("w").values;
    double uwall = 0;
    for (int k = 1; k <= g.nz; ++k)
      for (int j = 1; j <= g.ny; ++j) uwall = std::max({uwall, std::abs(u[g.at(0, j, k)]), std::abs(u[g.at(g.nx, j, k)])});
    EXPECT_EQ(uwall, 0.0);
    EXPECT_LT(s.diagnostics().get("max_divergence"), 1e-8);
    EXPECT_GT(w[g.at(4, 4, 2)], 0.01);
  }
}

// What the sides cannot hold: the direct FFT solve across an axis with outflow on one
// side only, inflow with nowhere to go, a half-periodic axis.
TEST(FractionalStep3d, RefusesWhatTheSidesCannotHold) {
  auto error = [](const FractionalStepConfig& c) {
    try {
      FractionalStepSolver<CpuExec, double, 3> s(c);
    } catch (const CaseError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  FractionalStepConfig c = box3(8, 8, 8, 1, 1, 1);
  c.nu = 0.1;
  FractionalStepConfig o = c;
  o.boundaries3[int(Side::Left)] = SideCondition{};
  o.boundaries3[int(Side::Right)] = side_of(BoundaryKind::Outflow, "outflow");
  EXPECT_NE(error(o).find("pressure.solver = 'fft' needs the same pressure condition on both sides of an axis"),
            std::string::npos)
      << error(o);
  o.pressure.solver = PressureSolverKind::Multigrid;
  EXPECT_EQ(error(o), "(accepted)");
  FractionalStepConfig i = c;
  i.boundaries3[int(Side::Left)] = inflow_side(64);
  i.boundaries3[int(Side::Right)] = SideCondition{};
  EXPECT_NE(error(i).find("fluid flows in (net flux 1) but has nowhere to go"), std::string::npos) << error(i);
  FractionalStepConfig h = c;
  h.boundaries3[int(Side::Back)] = SideCondition{};
  EXPECT_NE(error(h).find("periodic on one side of an axis"), std::string::npos) << error(h);
}

// Crank-Nicolson: a shear mode u = sin(k y) has no convection, so each step multiplies
// it by exactly g = (1 - a lam) / (1 + a lam), a = nu dt / 2, lam the staggered
// Laplacian's eigenvalue of the mode: (2 sin(h/2) / h)^2 in a periodic box, and for
// walls in y (the mirrored ghost) sin(pi (j - 1/2) h) with (2 sin(pi h / 2) / h)^2. dt
// is 20 times AB2's diffusive limit (explicit diffusion would blow up).
TEST(FractionalStep3d, CrankNicolsonDecaysAShearModeExactly) {
  for (bool walls : {false, true}) {
    const int n = 16;
    const double ly = walls ? 1.0 : 2 * kPi, h = ly / n, nu = 0.1;
    FractionalStepConfig c = box3(8, n, 8, 8 * h, ly, 8 * h);
    if (walls) c.boundaries3[int(Side::Bottom)] = c.boundaries3[int(Side::Top)] = SideCondition{};
    c.nu = nu;
    c.diffusion = FsDiffusion::CrankNicolson;
    const double limit = 1 / (4 * nu * 3 / (h * h));
    c.time.dt = 20 * limit;
    const double k = walls ? kPi : 1.0;
    const Grid3& g = c.grid3;
    for (int kk = 0; kk <= 9; ++kk)
      for (int j = 0; j <= n + 1; ++j)
        for (int i = 0; i <= 9; ++i) c.u0[g.at(i, j, kk)] = std::sin(k * (j - 0.5) * h);
    FractionalStepSolver<CpuExec, double, 3> s(c);
    const int steps = 10;
    for (int m = 0; m < steps; ++m) s.step();
    const double lam = std::pow(2 * std::sin(k * h / 2) / h, 2), a = 0.5 * nu * c.time.dt;
    const double decay = std::pow((1 - a * lam) / (1 + a * lam), steps);
    const auto u = s.save_state().array("u").values;
    double err = 0;
    for (int j = 1; j <= n; ++j) err = std::max(err, std::abs(u[g.at(3, j, 4)] - decay * std::sin(k * (j - 0.5) * h)));
    std::printf("  %s: dt = 20 x the explicit limit, decay %.6f after %d steps, max error %.2e, %ld CG iterations\n",
                walls ? "walls in y" : "periodic", decay, steps, err,
                long(s.diagnostics().get("diffusion_iterations")));
    EXPECT_LT(err, 1e-10);
  }
}
