// Boundary conditions as Lua builds them (flow.wall, flow.slip, flow.inflow,
// flow.outflow, flow.periodic, flow.custom) and their evaluation into SideCondition.
#pragma once
#include <lua.hpp>

#include <functional>
#include <string>

#include "core/boundary.hpp"
#include "core/grid.hpp"
#include "core/grid3.hpp"

namespace flowlua::lua {

inline constexpr const char* kBoundaryMeta = "flowlua.Boundary";

struct BoundarySpec {
  enum class Type { Wall, Slip, Inflow, Outflow, Periodic, Custom } type = Type::Wall;
  double u = 0, v = 0;    // constant physical velocity (wall, inflow)
  double w = 0;           // 3D only: the z velocity (wall, inflow)
  bool w_fn = false;      // inflow: w is function(a, b, t) (uservalue 4; 3D only)
  bool u_fn = false;      // inflow: u is function(s, t) (uservalue 1)
  bool v_fn = false;      // inflow: v is function(s, t) (uservalue 2)
  bool custom_fn = false; // custom: function(side, s, t) -> u, v (uservalue 1)
  long every = 1;         // re-evaluate functions every this many steps
  // Temperature on this side (psi_omega model): T = flow.dirichlet(value or fn) or
  // flow.neumann(gradient or fn); the function(s, t) is uservalue 3.
  ScalarCondition::Kind T_kind = ScalarCondition::Kind::None;
  double T_value = 0;
  bool T_fn = false;
  // Shallow water (model = 'lbm_swe'): flow.inflow{ q = ... } (discharge per unit
  // width into the domain, function(s, t)) or flow.outflow{ h = ... } (depth,
  // function(t)); the value or function is kept in u / u_fn (uservalue 1). 0: neither.
  char depth_key = 0;

  bool dynamic() const { return u_fn || v_fn || w_fn || custom_fn || T_fn; }  // u_fn: also q or h
  const char* type_name() const;  // "wall", "slip", "inflow", ...
  std::string label() const;      // SideCondition::label: "wall", "moving wall", "inflow", ...
  std::string describe() const;   // "moving wall (u = 1, v = 0)", for --explain
  std::string describe_without_T() const;
};

// The userdata behind a boundary value; uservalues 1 and 2 hold the functions.
struct BoundaryUD {
  BoundarySpec spec;
};

// Physical velocity (u, v) -> (normal into the domain, tangential) on `side`:
// left: (u, v); right: (-u, v); bottom: (v, u); top: (-v, u).
void physical_to_side(Side side, double u, double v, double& normal, double& tangential);

// Number of boundary cells on a side and the coordinate s of cell k (1-based) along it.
int side_cells(Side side, const Grid& grid);
double side_coordinate(Side side, const Grid& grid, int k);

// The userdata of flow.dirichlet(...) / flow.neumann(...): a scalar (temperature)
// condition; uservalue 1 holds the function(s, t) when it is one.
inline constexpr const char* kScalarMeta = "flowlua.ScalarCondition";
struct ScalarUD {
  ScalarCondition::Kind kind = ScalarCondition::Kind::Dirichlet;
  double value = 0;
  bool fn = false;
};
const char* side_axis(Side side);  // "y" on left/right, "x" on bottom/top

// Evaluates `spec` on `side` at time t. push_fn(0) pushes the u (or custom) function,
// push_fn(1) the v function, push_fn(2) the T function. Throws CaseError naming the
// side and coordinate when a function fails or returns something that is not a finite
// number, and when a wall has a normal velocity. With at_nodes (the psi_omega model)
// values are taken at the n + 1 grid nodes s = 0, h, ..., L of the side instead of the
// n cell centres.
SideCondition evaluate_side(lua_State* L, Side side, const Grid& grid, const BoundarySpec& spec,
                            double t, const std::function<void(int)>& push_fn, bool at_nodes = false);

// ---- 3D sides (lua_boundary3.cpp) ----
// The two transverse axes of a side (x, y, z order) and its number of cells in each.
void side_axes3(Side side, int& t1, int& t2);
// Evaluates a 3D side: values per boundary cell (na * nb, first transverse axis
// fastest); functions of inflow are function(a, b, t) of the two transverse
// coordinates in x, y, z order (y, z on left/right; x, z on bottom/top; x, y on
// back/front). push_fn(0, 1, 3) pushes the u, v, w function. Throws CaseError for
// what 3D sides do not take (flow.custom, temperature) and for walls with a normal
// velocity.
SideCondition evaluate_side3(lua_State* L, Side side, const Grid3& grid, const BoundarySpec& spec, double t,
                             const std::function<void(int)>& push_fn);

}  // namespace flowlua::lua
