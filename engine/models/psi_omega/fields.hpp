// The psi-omega model's state as the point functions see it (seed 000, eqs. 5, 9, 12).
//
// Node-based layout: a grid of NX x NY cells has (NX + 1) x (NY + 1) nodes at
// x = i dx, y = j dy, i = 0..NX, j = 0..NY (Ghia's 129 x 129 for 128 cells). The
// interior nodes 1..NX-1 x 1..NY-1 are the unknowns; the boundary nodes form the
// one-wide ring around them, exactly where core/grid.hpp puts ghost cells. So every
// array is an ordinary (nx + 2) x (ny + 2) field with nx = NX - 1 interior "cells",
// and the linalg Poisson stencil and solvers work on it unchanged (boundary values in
// the ring are folded into the right-hand side, see boundary_fill.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/hd.hpp"

namespace flowlua::psi_omega {

// The body bits of a node (body_setup.hpp): directions are east (+x), west (-x),
// north (+y), south (-y). kBodyNear << d: the neighbour in direction d is an interior
// fluid node; kBodyFar << d: so is the node two steps away (second-order one-sided
// differences); kBodyNode: the node belongs to a body.
enum BodyBits : std::uint16_t { kBodyNear = 1u, kBodyFar = 1u << 4, kBodyNode = 1u << 8 };

template <class Real>
struct State {
  Real* psi;           // stream function, u = dpsi/dy, v = -dpsi/dx (eq. 4)
  Real* w;             // vorticity dv/dx - du/dy (eq. 3), -lap psi = w (eq. 5)
  Real* T;             // temperature; nullptr without heat transport
  Real* w_next;        // vorticity after the explicit step
  Real* T_next;        // temperature after the explicit step
  Real* rhs;           // Poisson right-hand side: lap psi = rhs
  const Real* psi_b;   // boundary psi on the ring (0 inside and on an outflow side)
  int nx, ny;          // interior nodes per direction (cells - 1)
  Real dx, dy;
  // Obstacles: per node the body bits below (kBodyNode set on the nodes of a body);
  // nullptr without obstacles. Body nodes hold boundary values, like the ring.
  const std::uint16_t* body = nullptr;

  FL_HD std::size_t at(int i, int j) const { return std::size_t(j) * (nx + 2) + i; }
  FL_HD bool is_body(std::size_t c) const { return body && (body[c] & kBodyNode); }
  FL_HD bool is_body(int i, int j) const { return is_body(at(i, j)); }
  // Node velocities from the stream function, central differences (second order).
  FL_HD Real u_at(int i, int j) const { return (psi[at(i, j + 1)] - psi[at(i, j - 1)]) / (2 * dy); }
  FL_HD Real v_at(int i, int j) const { return -(psi[at(i + 1, j)] - psi[at(i - 1, j)]) / (2 * dx); }
};

// Per-side data the boundary kernels read, indexed by Side (left, right, bottom, top)
// and by node k = 0..n along the side (n + 1 nodes, corners included).
enum SideKind : int { kWallSide = 0, kSlipSide = 1, kOutflowSide = 2 };
enum ScalarKind : int { kScalarDirichlet = 0, kScalarNeumann = 1, kScalarZeroGradient = 2 };

template <class Real>
struct SideData {
  const Real* tangential[4];  // wall/inflow tangential velocity (+x on bottom/top, +y on left/right)
  const Real* scalar[4];      // T value (Dirichlet) or outward gradient dT/dn (Neumann)
  int kind[4];                // SideKind; walls, moving walls and inflows are kWallSide
  int scalar_kind[4];         // ScalarKind
};

}  // namespace flowlua::psi_omega
