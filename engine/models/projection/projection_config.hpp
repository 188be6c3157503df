// What the projection model (seed 002, NaSt2D) needs to build one simulation, beyond
// the shared part of the case. The Lua host fills it (bindings/projection_reader.cpp);
// setup (projection_setup.cpp) re-checks what the numerics depend on, so the model is
// safe to drive from C++ (tests, the benchmark harness) too.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/boundary.hpp"
#include "core/config.hpp"
#include "core/immersed.hpp"
#include "linalg/pressure_control.hpp"

namespace flowlua {

class Solver;

struct AdvectionControl {
  // gamma blends central (0) and donor-cell (1) differences (Griebel eq. 3.36).
  // Central (0, the default) is second order; the adaptive dt then also keeps the
  // cell-Peclet limit dt <= 2 nu / |u|^2. A negative value means "automatic":
  // gamma = min(1, 1.2 * max CFL number) each step, Griebel's rule
  // gamma >= max(|u dt/dx|, |v dt/dy|): robust at high Re, but first-order diffusive.
  double gamma = 0;
};

struct ProjectionConfig : CaseCommon {
  double nu = 0.01;           // kinematic viscosity
  double rho = 1.0;           // density, only scales pressure and forces
  double gx = 0, gy = 0;      // body force per unit mass
  Boundaries boundaries;
  std::vector<std::uint8_t> solid;  // nx*ny, 1 = obstacle cell; empty = none. Index (i-1) + (j-1)*nx
  std::vector<int> obstacle_id;     // nx*ny, which obstacle owns a solid cell (0-based, -1 none)
  // Obstacles with an exact shape (circle, rect, polygon, level set): the faces they
  // force and their surface (core/immersed.hpp). With kernels.bodies = "immersed"
  // their cells are fluid for the pressure and the faces
  // are forced; with "staircase" their cells in `solid` are obstacles, and the
  // geometry gives only the surface velocity of turning bodies and the surface for
  // the pressure part of the force.
  ImmersedGeometry immersed;
  // Per obstacle, the point moments are taken about (a circle's centre); empty or
  // NaN: the centroid of its cells.
  std::vector<double> obstacle_xc, obstacle_yc;
  // Initial values at the staggered positions, size grid.size(); empty = zero.
  std::vector<double> u0, v0, p0;
  PressureControl pressure;
  // pressure.mixed (float cases): the pressure kept in double and the solve refined
  // around a float solve that gains mixed_gain per step (linalg/refinement.hpp).
  bool pressure_mixed = false;
  double mixed_gain = 1e-2;
  AdvectionControl advection;
};

// Builds the projection model on the requested backend; "auto" takes CUDA when a
// device is present. Throws CaseError (bad config) or BackendError (no device).
std::unique_ptr<Solver> make_projection_solver(const ProjectionConfig& config);

}  // namespace flowlua
