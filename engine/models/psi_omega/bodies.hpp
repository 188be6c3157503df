// Bodies (obstacles) in the psi-omega model: the point functions and kernels shared by
// both backends. The geometry (which nodes, edges and bodies) is built on the host by
// body_setup.cpp; here is what runs every step.
//
// A body is a set of grid nodes (the corners of the cells whose four corners lie inside
// its shape) on which
//   - the stream function is one constant psi_B per connected body (no flow through
//     it); psi_B is folded into the Poisson right-hand side like the boundary ring's
//     values (stream_boundary.hpp), so the node is a Dirichlet node of the solve;
//   - the vorticity is Thom's formula (wall_vorticity.hpp) along each direction d in
//     which the neighbour is a fluid node: at a no-slip wall grad psi = 0, so
//     psi_1 = psi_B + h^2/2 d2psi/dn2 + O(h^3) and d2psi/dn2 = 2 (psi_1 - psi_B) / h^2;
//     directions with a body node on both sides have psi constant (d2psi = 0). So
//       w_B = -sum over fluid directions d of 2 (psi_d - psi_B) / h_d^2,
//     Thom's formula on a face and the sum of the two faces' at a convex corner;
//   - the temperature is a value (Dirichlet) or comes from the outward gradient
//     dT/dn = g into the body, second-order one-sided as on the sides:
//     T_B = (4 T_1 - T_2 + 2 h g) / 3 (first order, T_1 + h g, where T_2 is not fluid),
//     the mean over the fluid directions at a corner.
//
// The constant psi_B of a body away from the sides is not given by the boundary data.
// It is fixed by requiring the pressure to be single-valued around the body: on a
// no-slip wall at rest the tangential momentum equation reduces to dp/ds = mu dw/dn
// (s counter-clockwise around the body, n out of it into the fluid), so
//   oint_body dw/dn ds = 0
// (the integral condition of multiply connected domains in the vorticity-stream
// function form: Quartapelle & Valz-Gris, Int. J. Numer. Methods Fluids 1 (1981)
// 129-144; Quartapelle, "Numerical Solution of the Incompressible Navier-Stokes
// Equations", Birkhäuser 1993). For a body
// on the symmetry line of a symmetric flow it gives psi_B = the mean of the two walls'
// psi (test PsiOmegaBodies.SymmetricChannelBodyHasTheMeanStreamFunction).
// Discretely the integral is a sum over the body's surface edges (edge_circulation),
// whose vorticity on the body follows from psi by Thom's formula, so it is linear in
// psi_B: with psi = psi_solved + sum_k delta_k phi_k (phi_k harmonic, 1 on body k and
// 0 on every other Dirichlet node, computed once), delta solves A delta = -R, a K x K
// system (K bodies) whose matrix A is fixed by the geometry (body_setup.cpp).
#pragma once
#include "models/psi_omega/fields.hpp"

namespace flowlua::psi_omega {

// Offsets and spacings of the four directions (east, west, north, south).
template <class Real>
FL_HD long body_step(const State<Real>& s, int d) {
  const long pitch = s.nx + 2;
  return d == 0 ? 1 : d == 1 ? -1 : d == 2 ? pitch : -pitch;
}
template <class Real>
FL_HD Real body_spacing(const State<Real>& s, int d) {
  return d < 2 ? s.dx : s.dy;
}

// Thom's wall vorticity of body node c along direction d: -2 (psi_1 - psi_B) / h^2.
template <class Real>
FL_HD Real body_wall_vorticity(const State<Real>& s, const Real* psi, std::size_t c, int d) {
  const Real h = body_spacing(s, d);
  return -2 * (psi[c + body_step(s, d)] - psi[c]) / (h * h);
}

// The per-node entries of the body list: node index, connected body, T condition.
enum BodyThermalKind : int { kBodyAdiabatic = 0, kBodyTDirichlet = 1, kBodyTNeumann = 2 };

template <class Real>
struct BodyList {
  const int* node;        // node index in the field layout
  const int* component;   // connected body (index into psi_body)
  const int* thermal;     // BodyThermalKind
  const Real* T;          // the value (Dirichlet) or outward gradient (Neumann)
};

// Vorticity and temperature on the nodes of the bodies; one call per list entry k.
// relax: as on the sides (ADI steps past r = 1 under-relax the wall vorticity).
template <class Real>
struct BodyValues {
  State<Real> s;
  BodyList<Real> b;
  Real relax = 1;
  FL_HD void operator()(int k, int) const {
    const std::size_t c = std::size_t(b.node[k]);
    const unsigned info = s.body[c];
    Real w = 0;
    for (int d = 0; d < 4; ++d)
      if (info & (kBodyNear << d)) w += body_wall_vorticity(s, s.psi, c, d);
    s.w[c] = relax == Real(1) ? w : relax * w + (1 - relax) * s.w[c];
    if (!s.T) return;
    const int kind = b.thermal[k];
    if (kind == kBodyTDirichlet) {
      s.T[c] = b.T[k];
      return;
    }
    const Real g = kind == kBodyTNeumann ? b.T[k] : Real(0);
    Real sum = 0;
    int n = 0;
    for (int d = 0; d < 4; ++d) {
      if (!(info & (kBodyNear << d))) continue;
      const long st = body_step(s, d);
      const Real h = body_spacing(s, d), t1 = s.T[c + st];
      sum += (info & (kBodyFar << d)) ? (4 * t1 - s.T[c + 2 * st] + 2 * h * g) / 3 : t1 + h * g;
      ++n;
    }
    if (n > 0) s.T[c] = sum / n;  // nodes inside the body keep their T
  }
};

// psi at the body nodes: 0 during the solve (their value is in the right-hand side),
// then psi_B; psi_b (the folded values) follows psi_B too.
template <class Real>
struct BodyStream {
  State<Real> s;
  BodyList<Real> b;
  const Real* psi_body;  // per connected body (nullptr: keep psi_b's value)
  Real* psi_b;           // the boundary values folded into rhs (State::psi_b, writable)
  bool restore;          // false: zero; true: psi = psi_b = psi_B
  FL_HD void operator()(int k, int) const {
    const std::size_t c = std::size_t(b.node[k]);
    if (!restore) {
      s.psi[c] = 0;
      return;
    }
    const Real v = psi_body ? psi_body[b.component[k]] : psi_b[c];
    s.psi[c] = v;
    psi_b[c] = v;
  }
};

// The surface edges of the bodies whose psi_B is free: 4 ints each,
//   a, b        its end nodes (the body on the left going from a to b: counter-clockwise),
//   dir | bits  the direction d of its normal n (out of the body, into the fluid cell),
//               and bits 2..5: a + n fluid, a + 2n fluid, b + n fluid, b + 2n fluid,
//   body        the free body it belongs to (0..K-1).
enum EdgeBits : int { kEdgeANear = 1 << 2, kEdgeAFar = 1 << 3, kEdgeBNear = 1 << 4, kEdgeBFar = 1 << 5 };

// dw/dn at body node c along direction d: Thom's value there (wall_vorticity along d),
// and the fluid's w one and two nodes out, one-sided, second order when both are
// fluid; 0 (and `ok` false) when the node out is not fluid (a concave corner).
template <class Real>
FL_HD Real body_normal_derivative(const State<Real>& s, const Real* psi, const Real* w, std::size_t c, int d,
                                  bool near, bool far, bool& ok) {
  ok = near;
  if (!near) return 0;
  const long st = body_step(s, d);
  const Real h = body_spacing(s, d);
  const Real wb = body_wall_vorticity(s, psi, c, d);
  if (far) return (-3 * wb + 4 * w[c + st] - w[c + 2 * st]) / (2 * h);
  return (w[c + st] - wb) / h;
}

// h_t dw/dn over one surface edge (the mean of its two ends that have fluid along n;
// h_t its length): the edge's share of oint dw/dn ds. The same function serves the
// pressure condition (kernel below), its matrix (host, body_setup.cpp) and the pressure
// on the surface for sim:forces (body_forces.cpp).
template <class Real>
FL_HD Real edge_circulation(const State<Real>& s, const Real* psi, const Real* w, const int* e) {
  const int bits = e[2], d = bits & 3;
  bool oka, okb;
  const Real da = body_normal_derivative(s, psi, w, std::size_t(e[0]), d, (bits & kEdgeANear) != 0,
                                         (bits & kEdgeAFar) != 0, oka);
  const Real db = body_normal_derivative(s, psi, w, std::size_t(e[1]), d, (bits & kEdgeBNear) != 0,
                                         (bits & kEdgeBFar) != 0, okb);
  const Real ht = d < 2 ? s.dy : s.dx;
  const int n = int(oka) + int(okb);
  return n == 0 ? Real(0) : ht * (da + db) / Real(n);
}

// One edge's share, into out[k] (summed per body on the host: the bodies' edges are
// few, a perimeter).
template <class Real>
struct BodyCirculation {
  State<Real> s;
  const int* edges;
  double* out;
  FL_HD void operator()(int k, int) const { out[k] = double(edge_circulation(s, s.psi, s.w, edges + 4 * k)); }
};

// psi += sum_k delta_k phi_k at interior nodes (phi: K fields of the node layout).
template <class Real>
struct AddHarmonics {
  State<Real> s;
  const Real* phi;
  const Real* delta;
  int count;
  FL_HD void operator()(int i, int j) const {
    const std::size_t c = s.at(i, j), n = std::size_t(s.nx + 2) * std::size_t(s.ny + 2);
    Real add = 0;
    for (int k = 0; k < count; ++k) add += delta[k] * phi[std::size_t(k) * n + c];
    s.psi[c] += add;
  }
};

}  // namespace flowlua::psi_omega
