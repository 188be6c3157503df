// Readers for the parts of a case that the incompressible models on the 2D MAC/node
// grid read alike: the viscosity and gravity in `fluid`, the four `boundaries`,
// `obstacles` rasterised to cell flags, and `initial` fields given as numbers or
// functions. Each model's reader (projection_reader.cpp, psi_omega_reader.cpp) calls
// the ones it needs with its own options.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

// fluid.nu, given as nu or as Re with reference_velocity and reference_length;
// `missing` is the message when neither is there, `re_name` what the reference
// scales go with.
double read_viscosity(const TableReader& fluid, const std::string& missing, const std::string& re_name);
// fluid.gravity as { gx, gy } or { gx = , gy = }; false when absent.
bool read_gravity(const TableReader& fluid, double& gx, double& gy);

struct SideOptions {
  bool at_nodes = false;     // values at the n + 1 grid nodes of a side (psi_omega) or the n cells
  std::string no_T;          // when not empty: the message for a side with a T condition
  bool depth_sides = false;  // flow.inflow{ q } and flow.outflow{ h } allowed (model = 'lbm_swe')
};
// boundaries = { left = ..., right = ..., bottom = ..., top = ... } into `out` (values
// at t = 0), the side texts and the dynamic sides of `spec`; checks periodic pairs.
void read_boundaries(const TableReader& top, CaseSpec& spec, FnStore& store, const SideOptions& options,
                     Boundaries& out);

// The six sides of a 3D box (spec.common.dims = 3): boundaries = { left, right,
// bottom, top, back (z = 0), front (z = lz) } into `out` at t = 0 (lua_boundary3.cpp);
// inflow functions of the side's two transverse coordinates and t become dynamic
// sides (re-evaluated with evaluate_side3). Checks periodic pairs.
void read_boundaries3(const TableReader& top, CaseSpec& spec, FnStore& store, Boundaries3& out);

// obstacles = { shape or function(x, y), ... } rasterised onto spec.common.grid: `solid`
// and `obstacle_id` (nx * ny, empty when there is none) and spec.obstacles. On a 3D
// grid (spec.common.dims = 3): shapes (3D ones, or 2D ones extruded through z) or
// function(x, y, z), onto spec.common.grid3 (nx * ny * nz).
//
// ObstacleOptions (the psi_omega model): at_nodes rasterises onto the grid nodes
// (i dx, j dy), i = 0..nx, j = 0..ny, into (nx + 1) * (ny + 1) entries, i fastest, a node
// on a shape's edge inside; entry_keys lets an entry be a table { shape, key = ... },
// whose keys read_entry(k, entry) reads (k 0-based).
struct ObstacleOptions {
  bool at_nodes = false;
  std::vector<std::string> entry_keys;
  std::function<void(int, const TableReader&)> read_entry;
};
void read_obstacles(const TableReader& top, CaseSpec& spec, FnStore& store, std::vector<std::uint8_t>& solid,
                    std::vector<int>& obstacle_id, const ObstacleOptions& options = {});

// The value of a flow.level_set function (at stack index fn) at (x, y); CaseError
// naming `what` when it fails or returns no finite number.
double level_set_value(lua_State* L, int fn, const std::string& what, double x, double y);

// Fills `out` (g.size()) from t[key], a number or a function(x, y) evaluated at
// ((i + ox) dx, (j + oy) dy); leaves it empty when the key is absent.
void read_initial_field(lua_State* L, const TableReader& t, const char* key, const Grid& g, double ox, double oy,
                        std::vector<double>& out);

// The 3D counterpart: a number or a function(x, y, z) at ((i + ox) dx, (j + oy) dy,
// (k + oz) dz), into the Grid3 layout.
void read_initial_field3(lua_State* L, const TableReader& t, const char* key, const Grid3& g, double ox,
                         double oy, double oz, std::vector<double>& out);

// The summary of a flow case: head, fluid line (`fluid` after "  fluid: "), sides,
// obstacles, time, the Poisson solver (under `poisson_label`), forced kernels,
// advection and the re-evaluated sides.
std::string flow_summary(const CaseSpec& spec, const std::string& fluid, const std::string& poisson_label,
                         const std::string& poisson, const std::string& advection);

}  // namespace flowlua::lua
