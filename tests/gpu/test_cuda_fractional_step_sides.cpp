// The fractional-step model's sides and obstacles on the CUDA backend against the CPU
// backend, face by face (through the checkpoint state: u, v[, w], R^{n-1}, p), for
// every new kernel path: the 2D ghost fill (walls, a moving wall, inflow with a
// transverse component, outflow) and the outflow correction, the obstacle-aware
// momentum and correction variants (QUICK and central), the inflow/outflow duct in 3D
// with a sphere, bodies in the periodic box with the seed's pcg + FFT preconditioner,
// Crank-Nicolson around bodies, the side-flux reductions; double and float. The cases
// are tests/unit/fs_sides_problems.hpp. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../unit/fs_sides_problems.hpp"
#include "sim/solver.hpp"

using namespace flowlua;
using namespace fs_sides;

namespace {

void compare(FractionalStepConfig c, Precision prec, double tol, int steps = 40) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  c.precision = prec;
  c.pressure.tol = prec == Precision::Float ? 1e-5 : 1e-12;
  c.backend = BackendChoice::Cpu;
  auto cpu = make_fractional_step_solver(c);
  c.backend = BackendChoice::Cuda;
  auto gpu = make_fractional_step_solver(c);
  ASSERT_EQ(gpu->backend_name(), "cuda");
  for (int k = 0; k < steps; ++k) {
    cpu->step();
    gpu->step();
  }
  EXPECT_NEAR(cpu->time(), gpu->time(), (prec == Precision::Float ? 1e-5 : 1e-12) * cpu->time());
  const SolverState a = cpu->save_state(), b = gpu->save_state();
  std::vector<const char*> names = {"u", "v", "R_u", "R_v"};
  if (c.dims == 3) names = {"u", "v", "w", "R_u", "R_v", "R_w"};
  for (const char* name : names) {
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
  const Diagnostics dc = cpu->diagnostics(), dg = gpu->diagnostics();
  for (const char* key : {"inflow_flux", "outflow_flux"})
    if (!std::isnan(dc.get(key))) EXPECT_NEAR(dc.get(key), dg.get(key), tol * std::abs(dc.get(key))) << key;
}

}  // namespace

// 2D: inflow (parabola and a transverse component), outflow, a moving wall; no
// obstacle (the wall variants) and a rectangle (the body variants).
TEST(CudaFractionalStepSides, Channel2dQuickDouble) {
  compare(channel2(48, 24, 2.0, false, FsAdvection::Quick, 0.3), Precision::Double, 1e-10);
}
TEST(CudaFractionalStepSides, Channel2dQuickBodyDouble) {
  compare(channel2(48, 24, 2.0, true, FsAdvection::Quick), Precision::Double, 1e-10);
}
TEST(CudaFractionalStepSides, Channel2dCentralBodyDouble) {
  compare(channel2(48, 24, 2.0, true, FsAdvection::Central), Precision::Double, 1e-10);
}
// Float: rounding (~6e-8 per operation) through 40 steps; 1e-4 of the field scale, as
// the periodic-box tests.
TEST(CudaFractionalStepSides, Channel2dQuickBodyFloat) {
  compare(channel2(48, 24, 2.0, true, FsAdvection::Quick), Precision::Float, 1e-4);
}
// The general momentum variant (the scheme at run time) with bodies.
TEST(CudaFractionalStepSides, Channel2dGeneralBodyDouble) {
  FractionalStepConfig c = channel2(48, 24, 2.0, true, FsAdvection::Quick);
  c.kernels["general"] = "true";
  compare(c, Precision::Double, 1e-10);
}
// Crank-Nicolson around the body (the Helmholtz CG with mirrored neighbours and the
// homogeneous fill of its directions), at 4 times AB2's diffusive limit.
TEST(CudaFractionalStepSides, Channel2dCrankNicolsonBodyDouble) {
  FractionalStepConfig c = channel2(48, 24, 2.0, true, FsAdvection::Quick);
  c.diffusion = FsDiffusion::CrankNicolson;
  c.nu = 0.2;
  c.time.dt = 4 / (4 * c.nu * 2 / (c.grid.dx * c.grid.dx));
  compare(c, Precision::Double, 1e-10, 20);
}

// 3D: inflow (a product of parabolas, a transverse component), outflow, walls; a
// sphere of obstacle cells.
TEST(CudaFractionalStepSides, Duct3dQuickDouble) {
  compare(duct3(24, 12, 12, 2.0, false, FsAdvection::Quick), Precision::Double, 1e-10, 20);
}
TEST(CudaFractionalStepSides, Duct3dQuickSphereDouble) {
  compare(duct3(24, 12, 12, 2.0, true, FsAdvection::Quick), Precision::Double, 1e-10, 20);
}
TEST(CudaFractionalStepSides, Duct3dCentralSphereFloat) {
  compare(duct3(24, 12, 12, 2.0, true, FsAdvection::Central), Precision::Float, 1e-4, 20);
}
TEST(CudaFractionalStepSides, Duct3dCrankNicolsonSphereDouble) {
  FractionalStepConfig c = duct3(24, 12, 12, 2.0, true, FsAdvection::Quick);
  c.diffusion = FsDiffusion::CrankNicolson;
  c.nu = 0.2;
  c.time.dt = 4 / (4 * c.nu * 3 / (c.grid3.dy * c.grid3.dy));
  compare(c, Precision::Double, 1e-10, 10);
}
// Bodies in the periodic box: pcg with the FFT preconditioner (cuFFT vs FFTW inside
// the CG), the seed's method.
TEST(CudaFractionalStepSides, PeriodicBoxBodyPcgFftDouble) {
  compare(periodic_box_with_body(24, PressureSolverKind::PreconditionedCG), Precision::Double, 1e-10, 20);
}
TEST(CudaFractionalStepSides, PeriodicBoxBodyPcgFftFloat) {
  compare(periodic_box_with_body(24, PressureSolverKind::PreconditionedCG), Precision::Float, 1e-4, 20);
}
