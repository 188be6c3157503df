// Fields computed on the host from a download of the staggered state: cell-centred
// velocities, speed, vorticity, stream function, divergence, pressure in obstacles,
// and the forces on obstacles. Only called between steps (snapshots, diagnostics).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/immersed.hpp"
#include "models/projection/projection_config.hpp"
#include "core/flags.hpp"
#include "core/snapshot.hpp"
#include "sim/solver.hpp"

namespace flowlua::projection {

struct HostState {
  Grid grid;
  Neighbours nb;
  std::vector<double> u, v, p;  // staggered, grid.size() each; p kinematic
  const std::vector<CellFlags>* flags;
  double rho = 1, nu = 0;
  const Boundaries* boundaries = nullptr;  // for the snapshots' boundary values
  // Immersed bodies: the cells whose centre is inside one (nx*ny, as
  // ProjectionConfig::solid), shown as solid in snapshots though fluid for the solver.
  const std::vector<std::uint8_t>* body_cells = nullptr;
  // Immersed bodies (core/immersed.hpp): the divergence is the cut-cell balance the
  // projection holds (apertures, surface flux); the cells with no free face, which
  // keep no continuity, are left out of the divergence field and max_divergence (0).
  const ImmersedGeometry* immersed = nullptr;
  // The velocity before the last step and that step's dt (the forces' time
  // derivative); empty before the first step.
  std::vector<double> u_prev, v_prev;
  double dt_prev = 0;
};

const std::vector<std::string>& field_names();
FieldSnapshot derived_field(const HostState& s, const std::string& name);
// Forces on obstacle `obstacle` (0-based) by a momentum balance over a box around it
// (forces.cpp).
Forces obstacle_forces(const HostState& s, const ProjectionConfig& c, int obstacle);
// Whether cell (i, j) is fluid for the solver.
bool fluid_cell(const HostState& s, int i, int j);
// Cell-centred velocity (zero in obstacle cells).
double u_centre(const HostState& s, int i, int j);
double v_centre(const HostState& s, int i, int j);
// Kinetic energy, max speed and max |div u| over fluid cells; with immersed bodies
// also body_inflow (fill_flow_diagnostics in derived_fields.cpp).
void fill_flow_diagnostics(const HostState& s, Diagnostics& d);

}  // namespace flowlua::projection
