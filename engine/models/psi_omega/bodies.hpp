// Bodies (obstacles) in the psi-omega model: the point functions and kernels shared by
// both backends. The geometry (which nodes, edges and bodies) is built on the host by
// body_setup.cpp; here is what runs every step.
//
// A body is a set of grid nodes (the corners of the cells whose four corners lie inside
// its shape) on which
//   - the stream function is one constant psi_B per connected body (no flow through
//     it); psi_B is folded into the Poisson right-hand side like the boundary ring's
//     values (stream_boundary.hpp), so the node is a Dirichlet node of the solve;
//   - the vorticity is Thom's formula (wall_vorticity.hpp) along the direction d in
//     which the neighbour is a fluid node: at a no-slip wall grad psi = 0, so
//     psi_1 = psi_B + h^2/2 d2psi/dn2 + O(h^3) and w_B = -2 (psi_d - psi_B) / h_d^2
//     (Jensen's -(8 psi_d - psi_2d - 7 psi_B) / (2 h_d^2) with kernels.wall_vorticity =
//     "jensen", where the second node is fluid too). A convex corner node has two fluid
//     directions, one per face, and its vorticity is singular (w ~ r^-0.46); each of its
//     two fluid neighbours sees it as the end of its own face. It takes the mean of the
//     two faces' values. (Their sum, -lap psi for psi quadratic in the distance from
//     both faces, gives each neighbour both faces' vorticity, about twice its own face's:
//     at Re 40 on D = 8 cells the square's recirculation came out 2.64 D against the
//     projection model's 2.10 and the mean's 2.22, at D = 16 2.37 against 2.19 and 2.23;
//     docs/validation.md.)
//   - the temperature is a value (Dirichlet) or comes from the outward gradient
//     dT/dn = g into the body, second-order one-sided as on the sides:
//     T_B = (4 T_1 - T_2 + 2 h g) / 3 (first order, T_1 + h g, where T_2 is not fluid),
//     the mean over the fluid directions at a corner.
//
// The constant psi_B of a body away from the sides is not given by the boundary data.
// It is fixed by requiring the pressure to be single-valued around the body (a
// multiply connected domain needs one such condition per body: Quartapelle &
// Valz-Gris, Int. J. Numer. Methods Fluids 1 (1981) 129-144). Around any closed
// contour C in the fluid, oint_C grad p . ds = 0 with grad p = -du/dt - (u.grad)u +
// nu lap u is Kelvin's circulation theorem,
//   d Gamma_C / dt = oint_C (-(u.grad)u + nu lap u) . ds,   Gamma_C = oint_C u . ds,
// and Gamma_C depends on psi_B (the interior vorticity fixed, the flow around the body
// grows with psi_B - the walls' psi). C is a box of grid lines around the body, a few
// nodes clear of it (body_setup.cpp), where the flow is smooth: u, v and their
// derivatives are central differences of psi and w at the box's nodes (node_flow),
// lap u = (-dw/dy, dw/dx), trapezoidal along the box (kelvin_terms). Each step takes
//   Gamma_C(psi^{n+1}) = Gamma_C(psi^n) + dt K_C(psi^n, w^n)
// (forward Euler in the circulation), and from rest Gamma_C = 0. With psi^{n+1} =
// psi_solved + sum_k delta_k phi_k (phi_k harmonic, 1 on body k and 0 on every other
// Dirichlet node, computed once), delta solves A delta = r, A_jk = Gamma_j(phi_k), a
// K x K system (K free bodies) fixed by the geometry. For a body on the symmetry line
// of a symmetric flow it gives psi_B = the mean of the walls' psi (test
// PsiOmegaBodies.SymmetricChannelBodyHasTheMeanStreamFunction).
// The same condition on the body's own surface, oint dw/dn ds = 0 (dp/ds = mu dw/dn on a
// wall at rest), passes the singular corners of a staircase body (w ~ r^-0.46 at a
// right-angled corner, its normal derivative not integrable along the faces): its
// discrete form was biased, and off the symmetry line psi_B drifted steadily (the flow
// below a body reversed at Re 10), whatever dt. The box keeps the condition where the
// flow is smooth.
#pragma once
#include "models/psi_omega/fields.hpp"
#include "models/psi_omega/wall_vorticity.hpp"

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
// relax: as on the sides (ADI steps past r = 1 under-relax the wall vorticity);
// jensen: Jensen's formula where the second node along the direction is fluid.
template <class Real>
struct BodyValues {
  State<Real> s;
  BodyList<Real> b;
  Real relax = 1;
  bool jensen = false;
  FL_HD void operator()(int k, int) const {
    const std::size_t c = std::size_t(b.node[k]);
    const unsigned info = s.body[c];
    Real w = 0;
    int faces = 0;
    for (int d = 0; d < 4; ++d) {
      if (!(info & (kBodyNear << d))) continue;
      ++faces;
      if (jensen && (info & (kBodyFar << d))) {
        const long st = body_step(s, d);
        const Real h = body_spacing(s, d);
        w += jensen_wall_vorticity(s.psi[c], s.psi[c + st], s.psi[c + 2 * st], h, Real(0), Real(0), Real(0));
      } else {
        w += body_wall_vorticity(s, s.psi, c, d);
      }
    }
    if (faces > 1) w /= faces;  // a corner: the mean of its faces' values (above)
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

// The flow at an interior node from central differences of psi and w: u = dpsi/dy,
// v = -dpsi/dx, their gradients, lap u = -dw/dy, lap v = dw/dx. The neighbours may be
// boundary or body nodes (their values are the boundary values).
template <class Real>
struct NodeFlow {
  Real u, v, ux, uy, vx, vy, lapu, lapv;
};

template <class Real>
FL_HD NodeFlow<Real> node_flow(const State<Real>& s, const Real* psi, const Real* w, std::size_t c) {
  const long p = s.nx + 2;
  const Real dx = s.dx, dy = s.dy;
  const Real pxx = (psi[c + 1] - 2 * psi[c] + psi[c - 1]) / (dx * dx);
  const Real pyy = (psi[c + p] - 2 * psi[c] + psi[c - p]) / (dy * dy);
  const Real pxy = (psi[c + p + 1] - psi[c + p - 1] - psi[c - p + 1] + psi[c - p - 1]) / (4 * dx * dy);
  NodeFlow<Real> f;
  f.u = (psi[c + p] - psi[c - p]) / (2 * dy);
  f.v = -(psi[c + 1] - psi[c - 1]) / (2 * dx);
  f.ux = pxy;
  f.uy = pyy;
  f.vx = -pxx;
  f.vy = -pxy;
  f.lapu = -(w[c + p] - w[c - p]) / (2 * dy);
  f.lapv = (w[c + 1] - w[c - 1]) / (2 * dx);
  return f;
}

// The box around each free body (body_setup.cpp): counter-clockwise segments of one grid
// spacing, 4 ints each: a, b its end nodes, d the direction from a to b (east, west,
// north, south), the free body. kelvin_segment gives the segment's share of
// Gamma = oint u . ds and of K = oint (-(u.grad)u + nu lap u) . ds (trapezoidal).
template <class Real>
FL_HD void kelvin_segment(const State<Real>& s, const Real* psi, const Real* w, Real nu, const int* seg,
                          double& gamma, double& k) {
  const int d = seg[2];
  const double sx = d == 0 ? double(s.dx) : d == 1 ? -double(s.dx) : 0.0;
  const double sy = d == 2 ? double(s.dy) : d == 3 ? -double(s.dy) : 0.0;
  gamma = 0;
  k = 0;
  for (int e = 0; e < 2; ++e) {
    const NodeFlow<Real> f = node_flow(s, psi, w, std::size_t(seg[e]));
    const double gx = -(double(f.u) * f.ux + double(f.v) * f.uy) + double(nu) * f.lapu;
    const double gy = -(double(f.u) * f.vx + double(f.v) * f.vy) + double(nu) * f.lapv;
    gamma += 0.5 * (double(f.u) * sx + double(f.v) * sy);
    k += 0.5 * (gx * sx + gy * sy);
  }
}

// One segment's shares into out[2k] (Gamma) and out[2k + 1] (K), summed per body on the
// host (the boxes are short: a perimeter).
template <class Real>
struct KelvinTerms {
  State<Real> s;
  const int* segments;
  double* out;
  Real nu;
  FL_HD void operator()(int k, int) const {
    double g, kk;
    kelvin_segment(s, s.psi, s.w, nu, segments + 4 * k, g, kk);
    out[2 * k] = g;
    out[2 * k + 1] = kk;
  }
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
