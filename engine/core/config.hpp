// Everything the engine needs to build one simulation. The Lua host fills it from a
// case table and validates user-facing names; validate() re-checks what the numerics
// depend on, so the engine is safe to drive from C++ (tests) too.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/boundary.hpp"
#include "core/grid.hpp"

namespace flowlua {

enum class Precision { Float, Double };
enum class BackendChoice { Auto, Cpu, Cuda };

inline const char* precision_name(Precision p) { return p == Precision::Float ? "float" : "double"; }

struct TimeControl {
  double t_end = 1.0;     // stop at this simulated time ...
  long max_steps = -1;    // ... or after this many steps (-1: no limit)
  double dt = 0;          // fixed step; 0 means adaptive
  double cfl = 0.5;       // safety factor tau of Griebel eq. (3.50)
  double steady = 0;      // stop when max |du/dt| falls below this (0: off)
};

enum class PressureSolverKind { RedBlackSOR, ConjugateGradient, PreconditionedCG, Multigrid, FFT };
enum class PreconditionerKind { Jacobi, Multigrid, FFT };
enum class MultigridCycle { V, F };

struct PressureControl {
  PressureSolverKind solver = PressureSolverKind::RedBlackSOR;
  double omega = 1.7;     // SOR relaxation, 0 < omega < 2
  double tol = 1e-5;      // stop when ||r||_2 <= tol * ||b||_2
  int max_iter = 2000;    // sweeps (rbsor), iterations (cg, pcg) or cycles (multigrid)
  int check_every = 5;    // SOR: residual evaluated every this many sweeps (seed 002)
  // pcg only: what approximates the inverse Laplacian each iteration.
  PreconditionerKind preconditioner = PreconditionerKind::Multigrid;
  // multigrid (solver or preconditioner): cycle shape and red-black Gauss-Seidel
  // sweeps before and after each coarse-grid correction.
  MultigridCycle cycle = MultigridCycle::V;
  int pre_smooth = 2;
  int post_smooth = 2;
};

struct AdvectionControl {
  // gamma blends central (0) and donor-cell (1) differences (Griebel eq. 3.36).
  // Central (0, the default) is second order; the adaptive dt then also keeps the
  // cell-Peclet limit dt <= 2 nu / |u|^2. A negative value means "automatic":
  // gamma = min(1, 1.2 * max CFL number) each step, Griebel's rule
  // gamma >= max(|u dt/dx|, |v dt/dy|): robust at high Re, but first-order diffusive.
  double gamma = 0;
};

// Which model a config builds (make_solver dispatches on it).
enum class Model { Projection, PsiOmega };

// Heat transport and Boussinesq buoyancy (psi-omega model, seed 000 eqs. 9 and 12).
// Temperature boundary conditions travel with the sides (SideCondition::T).
struct HeatConfig {
  bool enabled = false;
  double kappa = 0;           // thermal diffusivity
  double beta = 0;            // thermal expansion coefficient (buoyancy -beta (T - T0) g; T0
                              // drops out of the vorticity equation, so it is not needed)
  std::vector<double> T0;     // initial T at the nodes, (nx + 1) * (ny + 1), i fastest; empty = 0
};

// Numerics of the psi-omega model.
enum class ScalarAdvection { Upwind, Central, Upwind2 };
inline const char* advection_name(ScalarAdvection a) {
  return a == ScalarAdvection::Upwind ? "upwind" : a == ScalarAdvection::Central ? "central" : "upwind2";
}
enum class WallVorticity { Thom, Jensen };
struct PsiOmegaControl {
  ScalarAdvection advection = ScalarAdvection::Central;
  WallVorticity wall = WallVorticity::Thom;
};

struct ProjectionConfig {
  Grid grid;
  double nu = 0.01;           // kinematic viscosity
  double rho = 1.0;           // density, only scales pressure and forces
  double gx = 0, gy = 0;      // body force per unit mass
  Boundaries boundaries;
  std::vector<std::uint8_t> solid;  // nx*ny, 1 = obstacle cell; empty = none. Index (i-1) + (j-1)*nx
  std::vector<int> obstacle_id;     // nx*ny, which obstacle owns a solid cell (0-based, -1 none)
  // Initial values at the staggered positions, size grid.size(); empty = zero.
  std::vector<double> u0, v0, p0;
  TimeControl time;
  PressureControl pressure;
  AdvectionControl advection;
  // Kernel variants the case forces, stage -> variant (kernels = { momentum = ... });
  // empty: the plan chooses (core/kernel_registry.hpp).
  std::map<std::string, std::string> kernels;
  Precision precision = Precision::Double;
  BackendChoice backend = BackendChoice::Auto;
  // The psi-omega model reads these too (it shares grid, nu, gx/gy, boundaries, time,
  // pressure as the stream-function Poisson solver, precision and backend).
  Model model = Model::Projection;
  HeatConfig heat;
  PsiOmegaControl psi_omega;
};

}  // namespace flowlua
