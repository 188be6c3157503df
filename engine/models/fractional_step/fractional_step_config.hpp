// What the fractional-step model (seed 004, Costarelli et al.) needs to build one
// simulation, beyond the shared part of the case. The Lua host fills it
// (bindings/fractional_step_reader.cpp); setup (fs_setup.cpp) re-checks what the
// numerics depend on, so the model is safe to drive from C++ (tests, the benchmark
// harness) too.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/boundary.hpp"
#include "core/config.hpp"
#include "linalg/pressure_control.hpp"

namespace flowlua {

class Solver;

// Convective face values (seed 004 sec. 1.4): QUICK (Leonard 1979, upwind-biased
// quadratic, seed eqs. 7-8 and 12) or the two-point central average.
enum class FsAdvection { Quick, Central };

inline const char* fs_advection_name(FsAdvection a) { return a == FsAdvection::Quick ? "quick" : "central"; }

// The viscous term: explicit in AB2 (seed eq. 5-6), or Crank-Nicolson with AB2 for
// convection (fs_diffusion.hpp), which lifts AB2's diffusive time-step limit.
enum class FsDiffusion { Explicit, CrankNicolson };
inline const char* fs_diffusion_name(FsDiffusion d) {
  return d == FsDiffusion::Explicit ? "explicit" : "crank_nicolson";
}

struct FractionalStepConfig : CaseCommon {
  double nu = 0.01;   // kinematic viscosity
  double rho = 1.0;   // density: scales the pressure only (p is solved as p / rho)
  FsAdvection advection = FsAdvection::Quick;
  FsDiffusion diffusion = FsDiffusion::Explicit;
  // Crank-Nicolson's CG: stop when |r| <= diffusion_tol |r_0| (0: 1e-12 in double, 1e-6
  // in float), or after diffusion_max_iter iterations.
  double diffusion_tol = 0;
  int diffusion_max_iter = 1000;
  // 2D sides: per axis periodic on both sides, or any of walls (no-slip, moving along
  // themselves), slip, inflow (normal velocity into the domain) and outflow on each
  // (core/ghost_fill.hpp, fs_outflow.hpp). Inflow without an outflow side must bring
  // no net flux.
  Boundaries boundaries;
  // 3D sides (dims = 3): the same, six sides.
  Boundaries3 boundaries3;
  // Obstacle cells (nx * ny, or nx * ny * nz in 3D, i fastest; empty: none): the
  // staircase of flagged cells (core/flags.hpp), no-slip at rest on their faces
  // (fs_state.hpp). They may not touch an inflow or outflow side.
  std::vector<std::uint8_t> solid;
  // A uniform body force per unit mass (x, y, z): the mean pressure gradient -dp/dz / rho
  // that drives a periodic duct. Zero: none.
  double force[3] = {0, 0, 0};
  // Initial values at the staggered positions (grid layout, size grid.size()): u(i, j)
  // at (i dx, (j - 1/2) dy), v(i, j) at ((i - 1/2) dx, j dy), p at the centres; empty = 0.
  // 3D: the Grid3 layout (grid3.size()), w(i, j, k) at ((i - 1/2) dx, (j - 1/2) dy, k dz).
  std::vector<double> u0, v0, w0, p0;
  // The Poisson solver: the direct FFT solve by default (exact in a periodic box,
  // the seed's preconditioner without the CG; refused with obstacles, and where an
  // axis has inflow on one side and outflow on the other); pcg with preconditioner =
  // "fft" is the seed's own method where bodies break the box; multigrid takes any
  // case. (The Lua reader picks by the case when pressure.solver is not given.)
  PressureControl pressure = [] {
    PressureControl p;
    p.solver = PressureSolverKind::FFT;
    p.preconditioner = PreconditionerKind::FFT;
    p.tol = 1e-8;
    return p;
  }();
};

// Builds the model on the requested backend ("auto": CUDA when a device answers).
// Throws CaseError (bad config) or BackendError (no device).
std::unique_ptr<Solver> make_fractional_step_solver(const FractionalStepConfig& config);

}  // namespace flowlua
