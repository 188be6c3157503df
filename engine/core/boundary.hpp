// Boundary conditions of the four sides, as the engine sees them.
//
// Every velocity condition is one of four families. "Dirichlet" covers the no-slip
// wall, the moving wall, inflow and user callbacks: the normal and tangential
// velocity on each boundary face is given (arrays below, filled on the host and
// uploaded when they change). The ghost-cell rules are NaSt2D's (Griebel et al.
// 1998, sec. 3.1.3): normal component set on the face, tangential component
// mirrored so that the face average equals the wall value.
#pragma once
#include <array>
#include <string>
#include <vector>

namespace flowlua {

// Left/right are -x/+x, bottom/top -y/+y, and in 3D back/front -z/+z (z points
// towards the viewer of an x-right, y-up picture).
enum class Side { Left = 0, Right = 1, Bottom = 2, Top = 3, Back = 4, Front = 5 };
inline constexpr std::array<Side, 4> kSides = {Side::Left, Side::Right, Side::Bottom, Side::Top};

inline const char* side_name(Side s) {
  switch (s) {
    case Side::Left: return "left";
    case Side::Right: return "right";
    case Side::Bottom: return "bottom";
    case Side::Top: return "top";
    case Side::Back: return "back";
    case Side::Front: return "front";
  }
  return "?";
}

enum class BoundaryKind {
  Dirichlet,  // velocity given on the face: wall, moving wall, inflow, custom
  Slip,       // free slip: no normal flow, no shear
  Outflow,    // zero normal gradient of velocity, pressure 0 on the face
  Periodic,   // wraps to the opposite side (both sides must say so)
};

inline const char* kind_name(BoundaryKind k) {
  switch (k) {
    case BoundaryKind::Dirichlet: return "dirichlet";
    case BoundaryKind::Slip: return "slip";
    case BoundaryKind::Outflow: return "outflow";
    case BoundaryKind::Periodic: return "periodic";
  }
  return "?";
}

// One side. For Dirichlet sides `normal` and `tangential` hold one value per boundary
// cell (ny values on left/right, nx on bottom/top, in increasing coordinate order).
// normal > 0 points into the domain (inflow); tangential follows +x on bottom/top and
// +y on left/right. `label` is what the user wrote ("wall", "inflow", ...), for --explain.
// A scalar's (temperature's) condition on one side; only the psi-omega model reads it.
// Values are per boundary node (n + 1 on a side of n cells, in increasing coordinate
// order): the temperature (Dirichlet) or the outward normal gradient dT/dn (Neumann).
// None means the model's default for the side's kind (see models/psi_omega).
struct ScalarCondition {
  enum class Kind { None, Dirichlet, Neumann } kind = Kind::None;
  std::vector<double> values;
};

struct SideCondition {
  BoundaryKind kind = BoundaryKind::Dirichlet;
  std::string label = "wall";
  std::vector<double> normal;
  std::vector<double> tangential;
  std::vector<double> tangential2;  // 3D only: the second transverse component
  ScalarCondition T;  // psi-omega model with heat transport only
};

using Boundaries = std::array<SideCondition, 4>;  // indexed by Side
// 3D: six sides. A Dirichlet side's normal/tangential values are per boundary cell of
// the side, in the order of its two transverse axes (a fastest: x on bottom/top and
// back/front, y on left/right; b: z on left/right and bottom/top, y on back/front);
// `tangential` holds the first transverse component, `tangential2` the second.
using Boundaries3 = std::array<SideCondition, 6>;
inline constexpr std::array<Side, 6> kSides3 = {Side::Left, Side::Right, Side::Bottom, Side::Top, Side::Back, Side::Front};
inline bool is_periodic_z(const Boundaries3& b) { return b[4].kind == BoundaryKind::Periodic; }

inline bool is_periodic_x(const Boundaries& b) { return b[0].kind == BoundaryKind::Periodic; }
inline bool is_periodic_y(const Boundaries& b) { return b[2].kind == BoundaryKind::Periodic; }
inline bool is_periodic_x(const Boundaries3& b) { return b[0].kind == BoundaryKind::Periodic; }
inline bool is_periodic_y(const Boundaries3& b) { return b[2].kind == BoundaryKind::Periodic; }

}  // namespace flowlua
