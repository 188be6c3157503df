// Boundary values of vorticity and temperature at the boundary nodes.
//
// Wall vorticity: Thom's formula (Thom 1933; e.g. Roache, "Computational Fluid
// Dynamics", sec. 3.3). At a wall node b with first interior node 1 at distance h
// along the inward normal n, psi_1 = psi_b + h dpsi/dn + h^2/2 d2psi/dn2 + O(h^3);
// dpsi/dn is fixed by the wall's tangential velocity and w = -lap psi, so
//   w_b = -2 (psi_1 - psi_b) / h^2 + sign * 2 U_t / h - d2psi/ds2,
// with sign +1 on the bottom (U_t = u) and right (U_t = v) sides and -1 on the top
// (U_t = u) and left (U_t = v) sides. On the top lid of a cavity this is
//   w_b = -2 (psi_1 - psi_b) / h^2 - 2 U / h.
// d2psi/ds2 (along the side) vanishes on walls (psi constant) and carries the
// d(u_n)/ds of an inflow profile. The local error is O(h), the global one O(h^2)
// (Huang & Wetton 1996): unlike the seed's ghost rule (sec. 3.3), which sets the
// ghost node to the wall value and gets about half the wall vorticity.
// Variant "jensen" (Jensen 1959; Woods 1954 family): with psi_2 two nodes in as well,
//   w_b = -(8 psi_1 - psi_2 - 7 psi_b) / (2 h^2) + sign * 3 U_t / h - d2psi/ds2,
// exact for cubic psi (local error O(h^2)).
// Slip sides: w_b = 0 (no shear). Outflow sides: zero normal gradient, w_b = w_1.
//
// Temperature: Dirichlet T_b = value; Neumann with outward gradient g from the
// second-order one-sided difference (3 T_b - 4 T_1 + T_2) / (2 h) = g, that is
// T_b = (4 T_1 - T_2 + 2 h g) / 3; outflow: zero gradient, T_b = T_1.
#pragma once
#include "models/psi_omega/fields.hpp"

namespace flowlua::psi_omega {

// Thom's formula. psi_b, psi_1: boundary and first interior node; sign as above;
// psi_ss: d2psi/ds2 along the side at the node.
template <class Real>
FL_HD Real thom_wall_vorticity(Real psi_b, Real psi_1, Real h, Real sign, Real u_t, Real psi_ss) {
  return -2 * (psi_1 - psi_b) / (h * h) + sign * 2 * u_t / h - psi_ss;
}

template <class Real>
FL_HD Real jensen_wall_vorticity(Real psi_b, Real psi_1, Real psi_2, Real h, Real sign, Real u_t, Real psi_ss) {
  return -(8 * psi_1 - psi_2 - 7 * psi_b) / (2 * h * h) + sign * 3 * u_t / h - psi_ss;
}

template <class Real>
FL_HD Real neumann_boundary_value(Real t1, Real t2, Real h, Real gradient) {
  return (4 * t1 - t2 + 2 * h * gradient) / 3;
}

// One call per k = 1..max(nx, ny): the boundary nodes (0, k), (nx+1, k) for k <= ny
// and (k, 0), (k, ny+1) for k <= nx. Corners are done by BoundaryCorners.
template <class Real>
struct BoundaryValues {
  State<Real> s;
  SideData<Real> b;
  bool jensen;  // WallVorticity::Jensen, else Thom
  Real relax = 1;  // wall vorticity = relax * formula + (1 - relax) * previous (ADI with large dt)
  FL_HD void one(int side, int k) const {
    const int nx = s.nx, ny = s.ny;
    int ib, jb, i1, j1, i2, j2, ia, ja, iz, jz;  // boundary, 1 and 2 inward, neighbours along the side
    Real h, hs, sign;
    switch (side) {
      case 0: ib = 0; jb = k; i1 = 1; j1 = k; i2 = 2; j2 = k; ia = 0; ja = k - 1; iz = 0; jz = k + 1;
              h = s.dx; hs = s.dy; sign = -1; break;
      case 1: ib = nx + 1; jb = k; i1 = nx; j1 = k; i2 = nx - 1; j2 = k; ia = ib; ja = k - 1; iz = ib; jz = k + 1;
              h = s.dx; hs = s.dy; sign = 1; break;
      case 2: ib = k; jb = 0; i1 = k; j1 = 1; i2 = k; j2 = 2; ia = k - 1; ja = 0; iz = k + 1; jz = 0;
              h = s.dy; hs = s.dx; sign = 1; break;
      default: ib = k; jb = ny + 1; i1 = k; j1 = ny; i2 = k; j2 = ny - 1; ia = k - 1; ja = jb; iz = k + 1; jz = jb;
              h = s.dy; hs = s.dx; sign = -1; break;
    }
    const std::size_t cb = s.at(ib, jb), c1 = s.at(i1, j1);
    switch (b.kind[side]) {
      case kWallSide: {
        const Real ss = (s.psi[s.at(ia, ja)] - 2 * s.psi[cb] + s.psi[s.at(iz, jz)]) / (hs * hs);
        const Real w = jensen ? jensen_wall_vorticity(s.psi[cb], s.psi[c1], s.psi[s.at(i2, j2)], h, sign,
                                                      b.tangential[side][k], ss)
                              : thom_wall_vorticity(s.psi[cb], s.psi[c1], h, sign, b.tangential[side][k], ss);
        s.w[cb] = relax == Real(1) ? w : relax * w + (1 - relax) * s.w[cb];
        break;
      }
      case kSlipSide: s.w[cb] = 0; break;
      default: s.w[cb] = s.w[c1]; break;
    }
    if (!s.T) return;
    switch (b.scalar_kind[side]) {
      case kScalarDirichlet: s.T[cb] = b.scalar[side][k]; break;
      case kScalarNeumann: s.T[cb] = neumann_boundary_value(s.T[c1], s.T[s.at(i2, j2)], h, b.scalar[side][k]); break;
      default: s.T[cb] = s.T[c1]; break;
    }
  }
  FL_HD void operator()(int k, int) const {
    if (k <= s.ny) { one(0, k); one(1, k); }
    if (k <= s.nx) { one(2, k); one(3, k); }
  }
};

// Corner nodes touch no interior five-point stencil; they hold the mean of their two
// boundary neighbours so that snapshots (cell averages of four nodes) are smooth.
// A Dirichlet temperature on either side wins (a heated wall's corner is at its T).
template <class Real>
struct BoundaryCorners {
  State<Real> s;
  SideData<Real> b;
  FL_HD void operator()(int corner, int) const {
    const int nx = s.nx, ny = s.ny;
    const int ic = (corner & 1) ? nx + 1 : 0, jc = (corner & 2) ? ny + 1 : 0;
    const int ix = (corner & 1) ? nx : 1, jy = (corner & 2) ? ny : 1;
    const int side_x = (corner & 1) ? 1 : 0, side_y = (corner & 2) ? 3 : 2;
    const std::size_t c = s.at(ic, jc), a = s.at(ix, jc), z = s.at(ic, jy);
    s.w[c] = Real(0.5) * (s.w[a] + s.w[z]);
    if (!s.T) return;
    const int ky = (corner & 2) ? ny + 1 : 0, kx = (corner & 1) ? nx + 1 : 0;
    if (b.scalar_kind[side_x] == kScalarDirichlet) s.T[c] = b.scalar[side_x][ky];
    else if (b.scalar_kind[side_y] == kScalarDirichlet) s.T[c] = b.scalar[side_y][kx];
    else s.T[c] = Real(0.5) * (s.T[a] + s.T[z]);
  }
};

}  // namespace flowlua::psi_omega
