// Host-side views of the lbm_swe state: snapshots (h, eta, u, v, speed, bed, froude,
// vorticity) and diagnostics (volume, momentum, energy) from the distributions.
#pragma once
#include <string>
#include <vector>

#include "core/snapshot.hpp"
#include "models/lbm_swe/lbm_swe_config.hpp"
#include "sim/solver.hpp"
#include "sim/steady.hpp"

namespace flowlua::lbm_swe {

// The macroscopic state of every cell (0-based i + j nx), velocities in m/s.
struct HostState {
  const LbmSweConfig* config = nullptr;
  double e = 0;
  std::vector<double> h, u, v;  // 0 in obstacle cells
};

// From the distributions f (9 n values, direction-major) in the arithmetic's units.
HostState host_state(const LbmSweConfig& c, double e, const std::vector<double>& f);

std::vector<std::string> field_names();
FieldSnapshot make_field(const HostState& s, const std::string& name);  // CaseError for unknown names
// volume (m^3 per m of depth... the 2D integral of h), momentum_x/y, energy, max_speed, max_froude
void add_diagnostics(const HostState& s, Diagnostics& d);
// What the run loop's steady test compares (sim/steady.hpp): the velocity and the depth.
void fill_steady_sample(const HostState& s, SteadySample& out);

}  // namespace flowlua::lbm_swe
