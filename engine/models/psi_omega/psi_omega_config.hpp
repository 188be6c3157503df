// What the stream function-vorticity model with heat transport (seed 000) needs to
// build one simulation, beyond the shared part of the case. The Lua host fills it
// (bindings/psi_omega_reader.cpp); psi_omega_setup.cpp re-checks it.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/boundary.hpp"
#include "core/config.hpp"
#include "linalg/pressure_control.hpp"

namespace flowlua {

class Solver;

// Heat transport and Boussinesq buoyancy (seed 000 eqs. 9 and 12). Temperature
// boundary conditions travel with the sides (SideCondition::T).
struct HeatConfig {
  bool enabled = false;
  double kappa = 0;           // thermal diffusivity
  double beta = 0;            // thermal expansion coefficient (buoyancy -beta (T - T0) g; T0
                              // drops out of the vorticity equation, so it is not needed)
  std::vector<double> T0;     // initial T at the nodes, (nx + 1) * (ny + 1), i fastest; empty = 0
};

enum class ScalarAdvection { Upwind, Central, Upwind2 };
inline const char* advection_name(ScalarAdvection a) {
  return a == ScalarAdvection::Upwind ? "upwind" : a == ScalarAdvection::Central ? "central" : "upwind2";
}
enum class WallVorticity { Thom, Jensen };
struct PsiOmegaControl {
  ScalarAdvection advection = ScalarAdvection::Central;
  WallVorticity wall = WallVorticity::Thom;
};

// Obstacles (bodies) on the grid nodes (engine/models/psi_omega/body_setup.hpp). The
// host rasterises each shape at the nodes x = i dx, y = j dy (i = 0..nx, j = 0..ny, the
// sides included); a cell belongs to a body when its four corner nodes are inside.
struct BodyConfig {
  std::vector<std::uint8_t> solid;  // (nx + 1) * (ny + 1) nodes, i fastest; empty: no obstacles
  std::vector<int> obstacle_id;     // the same layout: the obstacle owning a node (-1 none)
  int count = 0;                    // number of obstacles (sim:forces(k), k = 1..count)
  // Temperature per obstacle: Dirichlet (value) or Neumann (outward normal gradient
  // dT/dn of the fluid, n pointing from the fluid into the body); None: adiabatic.
  struct Thermal {
    ScalarCondition::Kind kind = ScalarCondition::Kind::None;
    double value = 0;
  };
  std::vector<Thermal> T;  // count entries (or empty: all adiabatic)
};

struct PsiOmegaConfig : CaseCommon {
  double nu = 0.01;           // kinematic viscosity
  double gx = 0, gy = 0;      // gravity, for buoyancy
  Boundaries boundaries;
  HeatConfig heat;
  // The stream-function Poisson solve -lap psi = omega (CG by default: the boundary
  // nodes carry Dirichlet values).
  PressureControl pressure = [] {
    PressureControl p;
    p.solver = PressureSolverKind::ConjugateGradient;
    p.tol = 1e-6;
    return p;
  }();
  PsiOmegaControl psi_omega;
  BodyConfig bodies;
};

// Builds the psi-omega model on the requested backend ("auto": CUDA when a device
// answers). Throws CaseError (bad config) or BackendError (no device).
std::unique_ptr<Solver> make_psi_omega_solver(const PsiOmegaConfig& config);

}  // namespace flowlua
