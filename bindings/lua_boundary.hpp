// Boundary conditions as Lua builds them (flow.wall, flow.slip, flow.inflow,
// flow.outflow, flow.periodic, flow.custom) and their evaluation into SideCondition.
#pragma once
#include <lua.hpp>

#include <functional>
#include <string>

#include "core/boundary.hpp"
#include "core/grid.hpp"

namespace flowlua::lua {

inline constexpr const char* kBoundaryMeta = "flowlua.Boundary";

struct BoundarySpec {
  enum class Type { Wall, Slip, Inflow, Outflow, Periodic, Custom } type = Type::Wall;
  double u = 0, v = 0;    // constant physical velocity (wall, inflow)
  bool u_fn = false;      // inflow: u is function(s, t) (uservalue 1)
  bool v_fn = false;      // inflow: v is function(s, t) (uservalue 2)
  bool custom_fn = false; // custom: function(side, s, t) -> u, v (uservalue 1)
  long every = 1;         // re-evaluate functions every this many steps

  bool dynamic() const { return u_fn || v_fn || custom_fn; }
  const char* type_name() const;  // "wall", "slip", "inflow", ...
  std::string label() const;      // SideCondition::label: "wall", "moving wall", "inflow", ...
  std::string describe() const;   // "moving wall (u = 1, v = 0)", for --explain
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
const char* side_axis(Side side);  // "y" on left/right, "x" on bottom/top

// Evaluates `spec` on `side` at time t. push_fn(0) pushes the u (or custom) function,
// push_fn(1) the v function. Throws CaseError naming the side and coordinate when a
// function fails or returns something that is not a finite number, and when a wall
// has a normal velocity.
SideCondition evaluate_side(lua_State* L, Side side, const Grid& grid, const BoundarySpec& spec,
                            double t, const std::function<void(int)>& push_fn);

}  // namespace flowlua::lua
