// Bodies given by their exact shape on the staggered (MAC) grid, for any model that
// stores u on east faces and v on north faces (the projection model today; the
// fractional-step model can take the same geometry and point function).
//
// Method: a sharp-interface ghost-cell immersed boundary (Tseng & Ferziger 2003,
// "A ghost-cell immersed boundary method for flow in complex geometry", J. Comput.
// Phys. 192, 593-623; Mittal & Iaccarino 2005, Annu. Rev. Fluid Mech. 37, 239-261,
// sec. 3.3) with the extrapolation along grid lines, and a cut-cell continuity
// equation (after Seo & Mittal 2011, J. Comput. Phys. 230, 7347-7363, sec. 3). Every
// velocity face is one of
//   free:   its position is in the fluid: an ordinary unknown, its momentum solved.
//           Where a neighbour of its stencil (same component, one cell along x or y)
//           lies inside a body, the stencil reads in that neighbour's place the value
//           that continues this grid line's profile linearly through the point where
//           the line crosses the surface (body velocity there) from the face on the
//           other side (`near`, below): the no-slip condition holds on the exact
//           surface along every line the stencil uses;
//   inside: its position is inside a body: it holds the body's velocity, or, next to
//           the fluid (a ghost), the fluid's profile continued through the surface
//           along the nearest crossing line (read by the cross terms of the
//           convection and by snapshots).
// Continuity: each cell with a free face counts the flux through the fluid part of
// its edges (apertures from the level set at the corners) and through the body's
// surface in it, so that a body neither swallows nor creates fluid; cells with no
// free face (inside a body) hold none.
//
// Why not direct forcing: the previous version forced the first faces outside the
// body to the value interpolated linearly between the surface and the next face
// (Fadlun et al. 2000, J. Comput. Phys. 161, 35-60) and dropped the continuity of
// the cells all of whose faces were forced (the mass sources of Kim, Kim & Choi
// 2001). Linear interpolation of the normal velocity, which grows quadratically from
// a wall, overestimates the flow into those cells at the front of a cylinder and out
// of them at the back: at D = 10 cells the DFG 2D-1 cylinder passed through itself 7%
// of the flow that the undisturbed inflow carries across its diameter, and its
// recirculation came out 17% short (docs/validation.md).
//
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
  // A rectangle whose sides lie on grid lines: its cells represent it exactly (the
  // staircase is then no approximation; models/projection/projection_kernels.cpp).
  bool on_grid_lines = false;
};

// Face codes.
enum : std::int8_t {
  kFaceFree = 0,
  kFaceInside = 1,
  // Ghosts: inside a body, next to the fluid. Their value continues the fluid's
  // linear profile through the surface from the face two cells away on the fluid
  // side (partner), along the grid line of the nearest crossing.
  kGhostWest = 2,  // fluid at +x, partner at +2x
  kGhostEast = 3,  // fluid at -x, partner at -2x
  kGhostSouth = 4,
  kGhostNorth = 5,
};

// One velocity component's faces, in the Grid layout ((nx+2) x (ny+2)).
struct FaceForcing {
  std::vector<std::int8_t> code;
  std::vector<double> weight;  // ghost: -d / (2h - d), d its distance from the surface; inside: 0
  std::vector<double> value;   // inside: body velocity at the face; ghost: at the crossing
  // The fluid fraction a of the cell edge the face sits on (1 away from bodies), from
  // the level set at the two corners, linear along the edge as the marching squares
  // of the surface take it; at least 1/2 on free faces (whose midpoint is fluid), so
  // that every free face enters the continuity of its two cells.
  std::vector<double> aperture;
  // The flux through the fluid part of a cut edge, per unit length, is exact for a
  // velocity linear along the edge from the body's at the crossing:
  //   free face:   a u + edge_weight u_next + edge_const,
  //   inside face:     edge_weight u_next + edge_const,
  // u_next the face one further along the edge on its fluid side (edge_side: +1 at
  // +y for u, +x for v; -1 the other way; 0: none, edge_weight 0). On an edge between
  // two cells that keep no continuity (`source`), which the surface may clip, the
  // fluid moves with the body (a u_body): no flow passes into them.
  std::vector<double> edge_weight, edge_const;
  std::vector<std::int8_t> edge_side;
  // Free faces next to a body: near[c] >= 0 indexes 4 entries of near_weight /
  // near_value / near_t, one per neighbour of the same component (west, east, south,
  // north): where that neighbour is inside a body, the grid line crosses the surface
  // t h from face c (near_t; -1 where the opposite face is not free either), the
  // momentum stencil of face c reads body + w (u_opposite - body) in the neighbour's
  // place, with body = near_value, w = near_weight = -(1 - t) / (1 + t) (0 with no
  // free opposite face), and its viscous term takes the second difference over the
  // unequal spacing (models/projection/immersed_forcing.hpp).
  std::vector<std::int32_t> near;
  std::vector<double> near_weight, near_value, near_t;
  long inside = 0, ghost = 0, near_wall = 0;
};

// A piece of a body's surface: midpoint, outward unit normal, length.
struct SurfaceSegment {
  double x, y, nx, ny, ds;
  int obstacle;
};

struct ImmersedGeometry {
  FaceForcing u, v;
  // Cells with no free face (every face inside a body or on the domain's side):
  // the projection moves no fluid velocity of theirs, so they keep no continuity
  // equation (Grid layout, 1 = such a cell).
  std::vector<std::int8_t> source;
  long sources = 0;
  // Cells that keep their balance and take in that of neighbouring source cells the
  // surface clips (a corner of fluid): bit k (1 west, 2 east, 4 south, 8 north) for
  // the neighbour that way (Grid layout). `merged` counts them.
  std::vector<std::int8_t> merge;
  long merged = 0;
  // The flow into the bodies through the surface in each cell, per unit volume:
  // -(1 / (dx dy)) sum over the cell's surface segments of u_body . n ds (0 for
  // bodies at rest; n outward from the body).
  std::vector<double> surface_flux;
  // The rigid velocity of the nearest body at every face (u and v component), for
  // the staircase treatment of moving bodies; empty when every body rests.
  std::vector<double> wall_u, wall_v;
  std::vector<SurfaceSegment> surface;
  // Cells within two cells of one whose centre is inside a body (Grid layout, 1 =
  // such a cell): their net inflow is the flow into the bodies (body_inflow).
  std::vector<std::int8_t> near_body;
  std::vector<int> obstacles;  // the case's obstacles that are immersed bodies
  // Per body (in the order of `obstacles`): the sides of the domain it reaches, bit
  // 1 << int(Side) (left 1, right 2, bottom 4, top 8): phi <= 0 somewhere on the side
  // (sampled every half cell) or phi < 0 at the centre of a cell beside it.
  std::vector<int> sides_reached;
  bool all_on_grid_lines = false;  // every body is a rectangle on grid lines
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
  const Real* aperture;
  const Real* edge_weight;
  const Real* edge_const;
  const std::int8_t* edge_side;
  const std::int32_t* near;
  const Real* near_weight;
  const Real* near_value;
  const Real* near_t;
};

// The predicted velocity of a face inside a body, made consistent with the projection
// that follows: the predictor is later corrected by -dt grad p^{n+1}, so the target
// is shifted by dt grad p^n at the face (the consistency of direct forcing with the
// fractional step, Domenichini 2008, J. Comput. Phys. 227, 6372-6384): at a steady
// state the corrected velocity is the target exactly. `partner` is the ghost's
// partner (u^n two cells out), `gp` dt grad p^n at the face.
template <class Real>
FL_HD Real forced_velocity(std::int8_t code, Real weight, Real body, Real partner, Real gp) {
  if (code == kFaceInside) return body + gp;
  return body + weight * (partner - body) + gp;
}

// The partner face's offset (two faces toward the fluid) for a ghost code.
FL_HD void ghost_partner(std::int8_t code, int& di, int& dj) {
  const int k = code - kGhostWest;
  di = k == 0 ? 2 : k == 1 ? -2 : 0;
  dj = k == 2 ? 2 : k == 3 ? -2 : 0;
}

}  // namespace flowlua
