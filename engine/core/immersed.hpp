// Bodies given by their exact shape on the staggered (MAC) grid, for any model that
// stores u on east faces and v on north faces (the projection model today; the
// fractional-step model can take the same geometry and point function).
//
// Method: sharp-interface direct forcing with linear interpolation along a grid line
// (Fadlun, Verzicco, Orlandi & Mohd-Yusof 2000, "Combined immersed-boundary
// finite-difference methods for three-dimensional complex flow simulations",
// J. Comput. Phys. 161, 35-60, sec. 3 and fig. 3; see also Mittal & Iaccarino 2005,
// Annu. Rev. Fluid Mech. 37, 239-261, sec. 3.2). Every velocity face is one of
//   free:    an ordinary unknown, untouched;
//   inside:  its position is inside a body: the predicted velocity is the body's;
//   forcing: outside every body, with a neighbour face (same component, one cell
//            along x or y) inside: the predicted velocity is interpolated linearly
//            between the body velocity where that grid line crosses the surface
//            (distance d) and the predicted velocity of the face on the other side
//            (distance d + h), so the no-slip condition holds on the exact surface to
//            second order in h.
// The body is given by a level-set function phi (< 0 inside; a signed distance is
// best): the crossing is found by bisection on phi, the surface for the pressure part
// of the force by marching squares on phi at the cell corners.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/grid.hpp"
#include "core/hd.hpp"

namespace flowlua {

// A body that keeps its place and may turn about (xc, yc) at omega (counter-clockwise):
// the velocity of its surface, a rotating cylinder's for instance.
struct RigidMotion {
  double xc = 0, yc = 0, omega = 0;
  double u(double, double y) const { return -omega * (y - yc); }
  double v(double x, double) const { return omega * (x - xc); }
};

struct ImmersedBody {
  std::function<double(double, double)> phi;  // < 0 inside
  RigidMotion motion;
  int obstacle = 0;  // the case's obstacle number (0-based)
};

// Face codes. A forcing face names the direction in which its grid line meets the body;
// the face it interpolates from lies one cell the other way.
enum : std::int8_t {
  kFaceFree = 0,
  kFaceInside = 1,
  kFaceWest = 2,  // body at -x, partner at +x
  kFaceEast = 3,  // body at +x, partner at -x
  kFaceSouth = 4,
  kFaceNorth = 5,
  // Ghost faces: inside a body, next to the fluid. Their value continues the fluid's
  // linear profile through the surface (the ghost-cell idea of Tseng & Ferziger 2003,
  // J. Comput. Phys. 192, 593-623) from the face two cells away on the fluid side, so
  // that the prescribed field has no kink in the cells the surface cuts (a kink there
  // makes their continuity equation inconsistent, an O(h) error). Same directions.
  kGhostWest = 6,  // fluid at +x, partner at +2x
  kGhostEast = 7,
  kGhostSouth = 8,
  kGhostNorth = 9,
};

// One velocity component's faces, in the Grid layout ((nx+2) x (ny+2)).
struct FaceForcing {
  std::vector<std::int8_t> code;
  std::vector<double> weight;  // forcing: d / (d + h); ghost: -d / (2h - d); inside: 0
  std::vector<double> value;   // forcing: body velocity at the crossing; inside: at the face
  long inside = 0, forcing = 0, ghost = 0;
};

// A piece of a body's surface: midpoint, outward unit normal, length.
struct SurfaceSegment {
  double x, y, nx, ny, ds;
  int obstacle;
};

struct ImmersedGeometry {
  FaceForcing u, v;
  // Cells every face of which is forced (or on the domain's side): their velocities
  // are all prescribed, and across the surface the prescribed field has a kink (the
  // body's motion inside, the fluid's outside), so they cannot also be held to zero
  // divergence. They are the mass source/sink cells of Kim, Kim & Choi (2001,
  // J. Comput. Phys. 171, 132-150): their continuity equation is dropped from the
  // projection (Grid layout, 1 = source cell).
  std::vector<std::int8_t> source;
  long sources = 0;
  // The rigid velocity of the nearest body at every face (u and v component), for
  // the staircase treatment of moving bodies; empty when every body rests.
  std::vector<double> wall_u, wall_v;
  std::vector<SurfaceSegment> surface;
  std::vector<int> obstacles;  // the case's obstacles that are immersed bodies
  bool empty() const { return obstacles.empty(); }
  bool moving() const { return !wall_u.empty(); }
};

// Classifies every face of the grid for the given bodies (phi is called a few times
// per face; no body may cross a periodic side: faces there are not forced across it).
ImmersedGeometry build_immersed_geometry(const Grid& g, const std::vector<ImmersedBody>& bodies);

// Device views of one component's faces.
template <class Real>
struct ForcingView {
  const std::int8_t* code;
  const Real* weight;
  const Real* value;
};

// The forced predicted velocity of a face (Fadlun et al. 2000, eq. 18 with linear
// interpolation), made consistent with the projection that follows: the predictor is
// later corrected by -dt grad p^{n+1}, so the target is shifted by dt grad p^n at the
// face and its partner (the consistency of direct forcing with the fractional step,
// Domenichini 2008, J. Comput. Phys. 227, 6372-6384): at a steady state the corrected velocity meets
// the body velocity exactly. `partner` is the partner's predictor already shifted,
// F_partner - dt grad p^n there; `gp` is dt grad p^n at the face.
template <class Real>
FL_HD Real forced_velocity(std::int8_t code, Real weight, Real body, Real partner, Real gp) {
  if (code == kFaceInside) return body + gp;
  return body + weight * (partner - body) + gp;
}

// The partner face's offset for a forcing or ghost code.
FL_HD void forcing_partner(std::int8_t code, int& di, int& dj) {
  const int k = code >= kGhostWest ? code - kGhostWest : code - kFaceWest;
  const int step = code >= kGhostWest ? 2 : 1;
  di = k == 0 ? step : k == 1 ? -step : 0;
  dj = k == 2 ? step : k == 3 ? -step : 0;
}

}  // namespace flowlua
