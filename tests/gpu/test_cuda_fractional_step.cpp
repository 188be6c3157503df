// The fractional-step model's CUDA backend against its CPU backend, face by face
// (through the checkpoint state: u, v, R^{n-1}, p), on a Taylor-Green vortex with a
// non-smooth perturbation (so QUICK's upwind branches both fire) and on a shear layer,
// for QUICK and central fluxes, the direct FFT solve (FFTW vs cuFFT + Makhoul) and
// pcg with the FFT preconditioner, in float and double. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "models/fractional_step/fractional_step_config.hpp"
#include "sim/solver.hpp"

using namespace flowlua;

namespace {

constexpr double kPi = 3.14159265358979323846;

FractionalStepConfig vortex(int nx, int ny, FsAdvection adv, bool pcg) {
  FractionalStepConfig c;
  c.grid = Grid::make(nx, ny, 2 * kPi, 2 * kPi * ny / nx);
  c.nu = 0.01;
  c.advection = adv;
  for (Side s : kSides) c.boundaries[int(s)].kind = BoundaryKind::Periodic;
  const Grid& g = c.grid;
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      c.u0[g.at(i, j)] = std::sin(i * g.dx) * std::cos((j - 0.5) * g.dy) + 0.1 * std::sin(0.37 * i * j);
      c.v0[g.at(i, j)] = -std::cos((i - 0.5) * g.dx) * std::sin(j * g.dy) + 0.3 * std::tanh(std::sin(3.0 * i * g.dx));
    }
  if (pcg) {
    c.pressure.solver = PressureSolverKind::PreconditionedCG;
    c.pressure.preconditioner = PreconditionerKind::FFT;
  }
  return c;
}

void compare(FractionalStepConfig c, Precision prec, double tol) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  c.precision = prec;
  c.pressure.tol = prec == Precision::Float ? 1e-5 : 1e-12;
  c.backend = BackendChoice::Cpu;
  auto cpu = make_fractional_step_solver(c);
  c.backend = BackendChoice::Cuda;
  auto gpu = make_fractional_step_solver(c);
  ASSERT_EQ(gpu->backend_name(), "cuda");
  for (int k = 0; k < 60; ++k) {
    cpu->step();
    gpu->step();
  }
  EXPECT_NEAR(cpu->time(), gpu->time(), (prec == Precision::Float ? 1e-5 : 1e-12) * cpu->time());
  const SolverState a = cpu->save_state(), b = gpu->save_state();
  for (const char* name : {"u", "v", "R_u", "R_v"}) {
    const auto& x = a.array(name).values;
    const auto& y = b.array(name).values;
    ASSERT_EQ(x.size(), y.size());
    double d = 0, ref = 1;
    for (std::size_t k = 0; k < x.size(); ++k) {
      d = std::max(d, std::abs(x[k] - y[k]));
      ref = std::max(ref, std::abs(x[k]));
    }
    EXPECT_LE(d / ref, tol) << name << " differs by " << d;
  }
}

}  // namespace

// Double: the same arithmetic in a different order (FMA, FFT algorithms).
TEST(CudaFractionalStep, QuickFftDouble) { compare(vortex(64, 48, FsAdvection::Quick, false), Precision::Double, 1e-10); }
TEST(CudaFractionalStep, CentralFftDouble) {
  compare(vortex(64, 48, FsAdvection::Central, false), Precision::Double, 1e-10);
}
TEST(CudaFractionalStep, QuickPcgFftDouble) { compare(vortex(40, 64, FsAdvection::Quick, true), Precision::Double, 1e-10); }
// Odd sizes: the Makhoul pipeline's odd-length paths on the device.
TEST(CudaFractionalStep, QuickFftOddSizesDouble) {
  compare(vortex(45, 33, FsAdvection::Quick, false), Precision::Double, 1e-10);
}
// Float: rounding (~6e-8 per operation) through 60 steps; 1e-4 of the field scale.
TEST(CudaFractionalStep, QuickFftFloat) { compare(vortex(64, 48, FsAdvection::Quick, false), Precision::Float, 1e-4); }
TEST(CudaFractionalStep, QuickPcgFftFloat) { compare(vortex(40, 64, FsAdvection::Quick, true), Precision::Float, 1e-4); }

// ---- 3D (seed 004's dimension): the same comparison through u, v, w and R^{n-1}.
namespace {

inline SideCondition side_of(BoundaryKind kind, const char* label) {
  SideCondition s;
  s.kind = kind;
  s.label = label;
  return s;
}
inline SideCondition periodic_side() { return side_of(BoundaryKind::Periodic, "periodic"); }

// A 3D Taylor-Green vortex with a rough perturbation (both QUICK branches fire), in a
// periodic box or a duct with walls in x and y (the wall-aware kernels and the ghost
// fill), driven along z by a body force in the duct.
FractionalStepConfig vortex3(int nx, int ny, int nz, FsAdvection adv, bool walls, PressureSolverKind solver) {
  FractionalStepConfig c;
  c.dims = 3;
  c.grid3 = Grid3::make(nx, ny, nz, 2 * kPi, 2 * kPi * ny / nx, 2 * kPi * nz / nx);
  c.grid = c.grid3.xy();
  c.nu = 0.01;
  c.advection = adv;
  for (Side s : kSides3) c.boundaries3[int(s)] = periodic_side();
  if (walls) {
    for (Side s : {Side::Left, Side::Right, Side::Bottom, Side::Top}) c.boundaries3[int(s)] = SideCondition{};
    c.force[2] = 0.5;
  }
  const Grid3& g = c.grid3;
  c.u0.assign(g.size(), 0.0);
  c.v0.assign(g.size(), 0.0);
  c.w0.assign(g.size(), 0.0);
  for (int k = 1; k <= nz; ++k)
    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) {
        const std::size_t at = g.at(i, j, k);
        const double cz = std::cos((k - 0.5) * g.dz);
        c.u0[at] = std::sin(i * g.dx) * std::cos((j - 0.5) * g.dy) * cz + 0.1 * std::sin(0.37 * i * j * k);
        c.v0[at] = -std::cos((i - 0.5) * g.dx) * std::sin(j * g.dy) * cz;
        c.w0[at] = 0.2 * std::tanh(std::sin(3.0 * i * g.dx + k * g.dz));
      }
  c.pressure.solver = solver;
  c.pressure.preconditioner =
      solver == PressureSolverKind::PreconditionedCG && walls ? PreconditionerKind::Multigrid : PreconditionerKind::FFT;
  return c;
}

void compare3(FractionalStepConfig c, Precision prec, double tol, int steps = 30) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  c.precision = prec;
  c.pressure.tol = prec == Precision::Float ? 1e-5 : 1e-12;
  c.backend = BackendChoice::Cpu;
  auto cpu = make_fractional_step_solver(c);
  c.backend = BackendChoice::Cuda;
  auto gpu = make_fractional_step_solver(c);
  ASSERT_EQ(gpu->backend_name(), "cuda");
  ASSERT_EQ(gpu->dims(), 3);
  for (int k = 0; k < steps; ++k) {
    cpu->step();
    gpu->step();
  }
  EXPECT_NEAR(cpu->time(), gpu->time(), (prec == Precision::Float ? 1e-5 : 1e-12) * cpu->time());
  const SolverState a = cpu->save_state(), b = gpu->save_state();
  for (const char* name : {"u", "v", "w", "R_u", "R_v", "R_w"}) {
    const auto& x = a.array(name).values;
    const auto& y = b.array(name).values;
    ASSERT_EQ(x.size(), y.size());
    double d = 0, ref = 1;
    for (std::size_t k = 0; k < x.size(); ++k) {
      d = std::max(d, std::abs(x[k] - y[k]));
      ref = std::max(ref, std::abs(x[k]));
    }
    EXPECT_LE(d / ref, tol) << name << " differs by " << d;
  }
  // the device-side diagnostics against the host ones
  const Diagnostics dc = cpu->diagnostics(), dg = gpu->diagnostics();
  EXPECT_NEAR(dc.get("kinetic_energy"), dg.get("kinetic_energy"), tol * dc.get("kinetic_energy"));
}

}  // namespace

// Double: the same arithmetic in a different order (FMA, cuFFT vs FFTW).
TEST(CudaFractionalStep3d, QuickFftPeriodicDouble) {
  compare3(vortex3(32, 24, 20, FsAdvection::Quick, false, PressureSolverKind::FFT), Precision::Double, 1e-10);
}
TEST(CudaFractionalStep3d, CentralPcgFftPeriodicDouble) {
  compare3(vortex3(24, 24, 24, FsAdvection::Central, false, PressureSolverKind::PreconditionedCG), Precision::Double,
           1e-10);
}
// Walls: the cosine transforms on the device (cuFFT + Makhoul) and the ghost fill.
TEST(CudaFractionalStep3d, QuickFftDuctDouble) {
  compare3(vortex3(24, 20, 16, FsAdvection::Quick, true, PressureSolverKind::FFT), Precision::Double, 1e-10);
}
TEST(CudaFractionalStep3d, QuickMultigridDuctDouble) {
  compare3(vortex3(32, 32, 16, FsAdvection::Quick, true, PressureSolverKind::Multigrid), Precision::Double, 1e-9);
}
// Float: rounding (~6e-8 per operation) through 30 steps of a flow that is not
// chaotic at this size; the same 1e-4 of the field scale as the 2D tests.
TEST(CudaFractionalStep3d, QuickFftPeriodicFloat) {
  compare3(vortex3(32, 24, 20, FsAdvection::Quick, false, PressureSolverKind::FFT), Precision::Float, 1e-4);
}
TEST(CudaFractionalStep3d, QuickFftDuctFloat) {
  compare3(vortex3(24, 20, 16, FsAdvection::Quick, true, PressureSolverKind::FFT), Precision::Float, 1e-4);
}
// Crank-Nicolson diffusion (the CG on I - nu dt/2 lap, homogeneous ghost fill of its
// direction) in the duct with walls, at 4 times AB2's diffusive limit.
TEST(CudaFractionalStep3d, CrankNicolsonDuctDouble) {
  FractionalStepConfig c = vortex3(24, 20, 16, FsAdvection::Quick, true, PressureSolverKind::FFT);
  c.diffusion = FsDiffusion::CrankNicolson;
  c.nu = 0.5;
  c.time.dt = 4 / (4 * c.nu * 3 / (c.grid3.dx * c.grid3.dx));
  compare3(c, Precision::Double, 1e-10);
}
TEST(CudaFractionalStep3d, CrankNicolsonDuctFloat) {
  FractionalStepConfig c = vortex3(24, 20, 16, FsAdvection::Quick, true, PressureSolverKind::FFT);
  c.diffusion = FsDiffusion::CrankNicolson;
  c.nu = 0.5;
  c.time.dt = 4 / (4 * c.nu * 3 / (c.grid3.dx * c.grid3.dx));
  compare3(c, Precision::Float, 1e-4);
}
