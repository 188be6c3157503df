// The predictor of seed 004 (sec. 1.2 and 1.5): the right-hand side
//   R(u)_a = -sum_b d_b(u_b u_a) + nu lap u_a
// as a flux balance on the momentum cell of component a (seed eq. 10), and the
// Adams-Bashforth 2 update u* = u^n + dt [(1 + r/2) R^n - (r/2) R^{n-1}] with
// r = dt_n / dt_{n-1} (eq. 5-6 for r = 1; forward Euler, eq. 2, on the first step).
// One point function for every component and dimension; both backends run it.
#pragma once
#include "models/fractional_step/fs_diffusion.hpp"
#include "models/fractional_step/fs_state.hpp"

namespace flowlua::fractional_step {

// QUICK coefficients (seed Code 8): c0 the downstream node of the face, c1 the
// upstream one, c2 the far-upstream one.
template <class Real>
struct Quick {
  static constexpr Real c0 = Real(0.375), c1 = Real(0.75), c2 = Real(-0.125);
};

// The scheme of a momentum kernel: compiled in, or read at run time (the general
// variant of the kernel registry).
enum Scheme { kQuick = 0, kCentral = 1, kRuntime = 2 };

// The transported value on the face between P and E (W before P, EE after E) for an
// advecting velocity f across it: QUICK upwinded on the sign of f (>= 0 as in the
// seed's table, eq. 12), or the central average.
template <int kScheme, class Real>
FL_HD Real face_value(Real f, Real w, Real p, Real e, Real ee, bool quick_at_run_time) {
  const bool quick = kScheme == kQuick || (kScheme == kRuntime && quick_at_run_time);
  if (!quick) return Real(0.5) * (p + e);
  return f >= Real(0) ? Quick<Real>::c0 * e + Quick<Real>::c1 * p + Quick<Real>::c2 * w
                      : Quick<Real>::c0 * p + Quick<Real>::c1 * e + Quick<Real>::c2 * ee;
}

// R(u)_a at the a-face of cell x (seed eq. 10-12). Along axis b the momentum cell's
// faces carry the advecting velocity averaged from two nodes (eq. 11): for b = a the
// cell centres between u_a nodes, otherwise the edges between u_b nodes.
//
// kWalls: along an axis with sides other than periodic the ghost layer holds the
// sides' values (core/ghost_fill.hpp: mirrored tangential values, the normal faces
// of walls 0, of inflow the inflow, of outflow the face the model keeps). A face
// whose QUICK stencil would reach past the ghost layer takes the central value: for
// b = a the cell centres next to the sides (their far-upstream node would be the
// face beyond the side); for b != a the side's faces themselves, where the
// advecting velocity is the side's normal velocity (0 on walls) and the central
// value is the side's tangential velocity (the ghost mirrors about it).
//
// kBodies: neighbours across an obstacle's wall are mirrored (State::neighbour), and
// a face value takes the central average unless the QUICK stencil's faces are all
// open (both cells fluid): the upwind-biased interpolation assumes smooth data, and
// at the body's wall the advecting velocity is 0 anyway.
template <int D, int kScheme, class Real, bool kWalls = false, bool kBodies = false>
FL_HD Real momentum_rhs(const State<D, Real>& s, int a, const Cell<D>& x, Real nu, bool quick = true) {
  const Real* ua = s.vel[a];
  const std::size_t c = s.at(x);
  const Real up = ua[c];
  Real conv = 0, diff = 0;
  for (int b = 0; b < D; ++b) {
    const Real um2 = s.template neighbour<kWalls, kBodies>(ua, x, a, b, -2);
    const Real um1 = s.template neighbour<kWalls, kBodies>(ua, x, a, b, -1);
    const Real up1 = s.template neighbour<kWalls, kBodies>(ua, x, a, b, 1);
    const Real up2 = s.template neighbour<kWalls, kBodies>(ua, x, a, b, 2);
    Real fp, fm;  // advecting velocity on the + and - faces along b
    if (b == a) {
      fp = Real(0.5) * (up + up1);
      fm = Real(0.5) * (um1 + up);
    } else {
      const Real* ub = s.vel[b];
      fp = Real(0.5) * (ub[c] + ub[s.template at<kWalls>(x, a, 1)]);
      fm = Real(0.5) * (ub[s.template at<kWalls>(x, b, -1)] + ub[s.template at<kWalls>(x, a, 1, b, -1)]);
    }
    bool central_p = false, central_m = false;
    if (kWalls && !s.periodic[b]) {
      central_m = x.c[b] == 1;
      central_p = x.c[b] >= s.n[b] - (b == a ? 1 : 0);
    }
    if (kBodies) {
      const bool om2 = s.open(x, a, b, -2), om1 = s.open(x, a, b, -1);
      const bool op1 = s.open(x, a, b, 1), op2 = s.open(x, a, b, 2);
      central_p = central_p || !(om1 && op1 && op2);
      central_m = central_m || !(om2 && om1 && op1);
    }
    const Real qp = central_p ? Real(0.5) * (up + up1) : face_value<kScheme>(fp, um1, up, up1, up2, quick);
    const Real qm = central_m ? Real(0.5) * (um1 + up) : face_value<kScheme>(fm, um2, um1, up, up1, quick);
    conv += (fp * qp - fm * qm) * s.inv_h[b];
    diff += (up1 - Real(2) * up + um1) * s.inv_h2[b];
  }
  return nu * diff - conv;
}

struct Ab2Weights {
  double now = 1, before = 0;  // u* = u + dt (now R^n - before R^{n-1})
  // Forward Euler on the first step; variable-step AB2 afterwards.
  static Ab2Weights for_step(long step, double dt, double dt_prev) {
    if (step == 0 || dt_prev <= 0) return {1, 0};
    const double r = dt / dt_prev;
    return {1 + 0.5 * r, 0.5 * r};
  }
};

// One pass over the cells: R^n of every component, u* from it and R^{n-1}, and
// R^n kept as the next step's history. A uniform body force (per unit mass: a mean
// pressure gradient driving a periodic duct) is part of R when has_force is set.
// Fixed faces (the sides' faces with kWalls, faces beside obstacles with kBodies)
// keep their value: u* = u^n there, R = 0. With Crank-Nicolson
// diffusion (cn, fs_diffusion.hpp) R is the convection (and force) only, and u* gets
// the explicit half of the viscous term, a L u^n: the right-hand side of the
// Helmholtz solve that follows.
template <int D, int kScheme, class Real, bool kWalls = false, bool kBodies = false>
struct Predictor {
  State<D, Real> s;
  Real nu, dt, w_now, w_before;
  bool quick;  // kRuntime only
  bool has_force = false;
  Real force[D] = {};
  bool cn = false;
  Real half_nu_dt = 0;  // a = nu dt / 2 (cn only)

  FL_HD void point(const Cell<D>& x) const {
    const std::size_t c = s.at(x);
    for (int a = 0; a < D; ++a) {
      if (s.template fixed<kWalls, kBodies>(x, a)) {
        s.star[a][c] = s.vel[a][c];
        s.hist[a][c] = Real(0);
        continue;
      }
      Real r = momentum_rhs<D, kScheme, Real, kWalls, kBodies>(s, a, x, cn ? Real(0) : nu, quick);
      if (has_force) r += force[a];
      Real st = s.vel[a][c] + dt * (w_now * r - w_before * s.hist[a][c]);
      if (cn) st += half_nu_dt * component_laplacian<D, Real, kWalls, kBodies>(s, s.vel[a], x, a);
      s.star[a][c] = st;
      s.hist[a][c] = r;
    }
  }
  FL_HD void operator()(int i, int j) const {
    if constexpr (D == 2) point(Cell<D>{{i, j}});
  }
  FL_HD void operator()(int i, int j, int k) const {
    if constexpr (D == 3) point(Cell<D>{{i, j, k}});
  }
};

}  // namespace flowlua::fractional_step
