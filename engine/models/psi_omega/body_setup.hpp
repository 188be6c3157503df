// The bodies of a psi-omega case on the host: which nodes, cells and surface edges
// belong to a body, which bodies are connected, which touch a side (their stream
// function is the side's) and which are free (psi_B from the single-valued pressure
// condition, bodies.hpp), and the forces on them (body_forces.cpp).
//
// Geometry on the node grid: the reader marks the nodes inside each shape (x = i dx,
// y = j dy, sides included). A cell is a body cell when its four corner nodes are
// inside; the body's nodes are the corners of its cells, so every body is a union of
// whole cells (a staircase polygon through grid nodes, the same cells the projection
// model makes solid for a shape whose edges lie on grid lines) and no body node has
// fluid on two opposite sides. Fluid nodes enclosed by bodies (no path of neighbouring
// fluid nodes to a side) become body nodes. Bodies are the 8-connected components of
// the body nodes: nodes that touch diagonally leave no fluid node between them.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/grid.hpp"
#include "models/psi_omega/bodies.hpp"
#include "models/psi_omega/psi_omega_config.hpp"
#include "sim/solver.hpp"

namespace flowlua::psi_omega {

struct BodySetup {
  int obstacles = 0;                 // obstacles in the case
  std::vector<std::uint16_t> info;   // node layout, BodyBits; empty without bodies
  // The body list (BodyList): one entry per body node.
  std::vector<int> node, component, thermal;
  std::vector<double> T;
  int components = 0;                // connected bodies
  std::vector<int> free_index;       // per component: index among the free bodies, -1 when attached
  std::vector<int> attached_ring;    // per component: a ring node whose psi it takes (-1 free)
  int free_count = 0;
  // The surface edges of the free bodies (the viscous force, body_forces.cpp), 4 ints
  // each: a, b its end nodes (the body on the left going from a to b: counter-clockwise),
  // d the direction of its normal out of the body (east, west, north, south), the free body.
  std::vector<int> edges;
  std::vector<int> edge_obstacle;    // per edge: the obstacle owning its body cell
  std::vector<int> segments;         // 4 ints per segment of the boxes around the free bodies (bodies.hpp)
  std::vector<int> box_margin;       // per free body: nodes between its box and it
  // Per obstacle: whether another obstacle shares one of its bodies, whether one of its
  // bodies touches a side, and the centroid of its cells (the moment's reference).
  std::vector<char> obstacle_shared, obstacle_attached;
  std::vector<int> obstacle_node;  // a node of one of its cells (its psi_B), per obstacle
  std::vector<double> ref_x, ref_y;
  long nodes = 0, cells = 0, filled = 0;  // body nodes, body cells, enclosed fluid nodes closed

  bool any() const { return !node.empty(); }
  std::size_t entries() const { return node.size(); }
  std::size_t edge_count() const { return edges.size() / 4; }
  std::size_t segment_count() const { return segments.size() / 4; }
};

// Builds the bodies of c.bodies on the node grid `nodes` (interior nodes as cells, the
// ring the sides); ring_psi: the boundary stream function on the ring (node layout),
// outflow_side: the outflow's Side index or -1. Throws CaseError for an obstacle with
// no body cell, a body touching an outflow side, or one touching sides of different
// stream function (it would block the flow between them).
BodySetup build_bodies(const PsiOmegaConfig& c, const Grid& nodes, const std::vector<double>& ring_psi,
                       int outflow_side);

// The stream function of each connected body: attached bodies take the ring's value
// (ring_psi), free ones keep theirs from `current` (the previous psi_B; 0 at first).
std::vector<double> body_stream_values(const BodySetup& b, const std::vector<double>& ring_psi,
                                       const std::vector<double>& current);

// Gamma_j = oint u . ds and K_j = oint (-(u.grad)u + nu lap u) . ds around the box of
// each free body (bodies.hpp, kelvin_segment), on host arrays.
template <class Real>
void kelvin_sums(const BodySetup& b, const State<Real>& s, const Real* psi, const Real* w, double nu,
                 std::vector<double>& gamma, std::vector<double>& k) {
  gamma.assign(std::size_t(b.free_count), 0.0);
  k.assign(std::size_t(b.free_count), 0.0);
  for (std::size_t q = 0; q < b.segment_count(); ++q) {
    double g, kk;
    kelvin_segment(s, psi, w, Real(nu), b.segments.data() + 4 * q, g, kk);
    gamma[std::size_t(b.segments[4 * q + 3])] += g;
    k[std::size_t(b.segments[4 * q + 3])] += kk;
  }
}

// Solves A x = r in place (K x K, row-major) by Gaussian elimination with partial
// pivoting; false when A is singular.
bool solve_dense(std::vector<double> A, std::vector<double>& r);

// The force on obstacle k (sim:forces) from host copies of psi, w and the previous
// step's psi (dt: that step; 0 before the first): a momentum balance over a box of
// fluid around the body for the total, the wall shear mu w over its surface edges for
// the viscous part (body_forces.cpp). rho = 1. CaseError for an obstacle touching a
// side or another obstacle, or one with no room for the box.
Forces body_forces(const BodySetup& b, const Grid& nodes, double nu, const std::vector<double>& psi,
                   const std::vector<double>& w, const std::vector<double>& psi_prev, double dt, int obstacle);

// The --explain lines of the bodies ("" without bodies).
std::string describe_bodies(const BodySetup& b);

}  // namespace flowlua::psi_omega
