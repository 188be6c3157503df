// The fractional-step model's 3D fields for Lua, computed on the host from a
// download of the staggered state (between steps only): cell-centred velocities
// (the average of a cell's two faces), the pressure (zero mean, times rho), the
// speed, the vorticity (components and magnitude, central differences of the
// cell-centred velocities, one-sided next to the sides) and the divergence of the
// face velocities (seed 004 eq. 13). Obstacle cells are marked solid (their faces are
// at rest, so their velocities are 0, their pressure the solver's).
#pragma once
#include <string>
#include <vector>

#include "core/flags.hpp"
#include "core/grid3.hpp"
#include "core/snapshot3.hpp"

namespace flowlua::fractional_step {

struct HostState3 {
  Grid3 grid;
  bool periodic[3] = {true, true, true};
  std::vector<double> vel[3];  // u, v, w on the faces, Grid3 layout, ghost layers as the solver keeps them
  std::vector<double> p;       // p / rho at the centres
  double rho = 1;
  // The cell flags (Grid3 layout; obstacle cells are not fluid and are shown solid),
  // null: every cell fluid. singular: no outflow side, p shown with zero mean.
  const std::vector<CellFlags>* flags = nullptr;
  bool singular = true;
};

const std::vector<std::string>& field_names3();
// CaseError for an unknown name.
FieldSnapshot3 derived_field3(const HostState3& s, const std::string& name);

}  // namespace flowlua::fractional_step
