// flow.simulation{...} table -> ProjectionConfig, with every key and value checked.
#pragma once
#include <lua.hpp>

#include <array>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "lua_boundary.hpp"

namespace flowlua::lua {

// Lua values kept alive for a simulation: the table at `table` (an absolute stack
// index) holds them in integer slots 1, 2, ...
struct FnStore {
  lua_State* L = nullptr;
  int table = 0;
  int next = 1;
  int store(int idx);           // copies the value at idx into a new slot
  void push(int slot) const;    // pushes the value of a slot
};

// A side whose values come from Lua functions, re-evaluated while the simulation runs.
struct DynamicSide {
  Side side = Side::Left;
  BoundarySpec spec;
  int slot_a = 0;  // u function (inflow) or the custom function
  int slot_b = 0;  // v function (inflow)
  int slot_T = 0;  // T function (flow.dirichlet / flow.neumann with a function)
  bool at_nodes = false;  // psi_omega: values at the grid nodes
};

struct ObstacleInfo {
  std::string description;  // "circle at (0.5, 0.5) r = 0.1"
  long cells = 0;           // cells it covers on its own
  int slot = 0;             // the Lua value (shape or function), for sim:forces(obstacle)
};

struct CaseSpec {
  std::string model = "projection";     // config.model says the same as an enum
  ProjectionConfig config;
  std::vector<DynamicSide> dynamic;
  std::vector<ObstacleInfo> obstacles;
  std::array<std::string, 4> side_text;  // "wall (no slip)", ... for the summary
  std::string advection = "central";
  std::string output;                    // the simulation's own output folder ("" = global)
  // Stop conditions (the run loop's): t_end is infinite when not given.
  double t_end = std::numeric_limits<double>::infinity();
  long max_steps = -1;
  double steady = 0;

  std::string summary() const;  // the case as --explain prints it
};

// Reads and checks the table at idx. Functions (boundary profiles, obstacle shapes)
// are kept in `store`. Throws CaseError with the key path and what is allowed.
CaseSpec read_case(lua_State* L, int idx, FnStore& store);

class TableReader;
// fluid.nu, given as nu or as Re with reference_velocity and reference_length (both
// models); `missing` is the message when neither is there, `re_name` what the
// reference scales go with.
double read_viscosity(const TableReader& fluid, const std::string& missing, const std::string& re_name);
// fluid.gravity as { gx, gy } or { gx = , gy = } (both models); false when absent.
bool read_gravity(const TableReader& fluid, double& gx, double& gy);
// Reads the forced kernel variants of `stages` and `general` from a kernels table.
void read_forced_kernels(const TableReader& kernels, std::initializer_list<const char*> stages, CaseSpec& c);

// Largest grid: nx, ny <= 65536 and nx * ny <= 2^31.
inline constexpr long long kMaxCellsPerSide = 65536;
inline constexpr long long kMaxCells = 1LL << 31;

}  // namespace flowlua::lua
