// Fields computed on the host from a download of the staggered state: cell-centred
// velocities, speed, vorticity, stream function, divergence, pressure in obstacles,
// and the forces on obstacles. Only called between steps (snapshots, diagnostics).
#pragma once
#include <string>
#include <vector>

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
};

const std::vector<std::string>& field_names();
FieldSnapshot derived_field(const HostState& s, const std::string& name);
Forces obstacle_forces(const HostState& s, const std::vector<int>& cell_obstacle, int obstacle);
// Kinetic energy, max speed and max |div u| over fluid cells.
void fill_flow_diagnostics(const HostState& s, Diagnostics& d);

}  // namespace flowlua::projection
