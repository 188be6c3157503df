// The fused step of the lattice-Boltzmann shallow-water model: for every cell, pull
// the nine post-collision distributions of the last step from the neighbours
// (streaming, with the sides' and obstacles' rules), add the bed-slope force on each
// link, apply bottom friction, then collide (BGK or TRT, optional Smagorinsky) and
// write the nine post-collision values. One pass over memory: 9 distributions read
// and 9 written per cell, plus (kBed) the depth of the last step at the cell and its
// neighbours (cached) and the bed z, and the new depth written.
//
// Storing post-collision values means the stored f of a cell carry its depth and
// momentum: h = sum f, h U = sum c f (collision conserves both; the sources act
// before it), so snapshots read one cell.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/hd.hpp"
#include "models/lbm_swe/d2q9.hpp"
#include "models/lbm_swe/lbm_swe_config.hpp"
#include "models/lbm_swe/storage.hpp"

namespace flowlua::lbm_swe {

template <class Real>
struct SideView {
  int kind[4];           // SweSide per side (left, right, bottom, top)
  const Real* value[4];  // q, u or h per boundary cell (open sides), else unused
};

template <class Real>
struct StepParams {
  Real omega;        // 1 / tau (BGK, and the symmetric rate of TRT)
  Real omega_minus;  // TRT antisymmetric rate, from Lambda = (tau+ - 1/2)(tau- - 1/2) = 1/4
  Real tau;
  int trt;           // 0: BGK, 1: TRT
  Real smag;         // 18 sqrt(2) C_s^2 (0: no eddy viscosity)
  Real ge2;          // g / e^2
  int friction;      // SweFriction
  Real friction_k;   // dt g n^2 e (Manning, times h^(-4/3)) or dt g e / C^2 (Chezy, times 1/h)
  Real inv_e;        // 1 / e, for the velocities of the sides
};

// The arrays of one step: f of the last step (src) and of this one (dst), nx * ny
// cells per direction (structure of arrays), the depth of the last step (h_prev) and
// this one (h_next) and the bed (z) when kBed, and obstacle flags when kSolid.
template <class Real, class Store>
struct StepArrays {
  const Store* src;
  Store* dst;
  const Real* h_prev;
  Real* h_next;
  const Real* z;
  const std::uint8_t* solid;
  int nx, ny;
  long n;  // nx * ny
};

template <class Real, class Store, bool kBed, bool kSolid>
struct StreamCollide {
  StepArrays<Real, Store> m;
  StepParams<Real> p;
  SideView<Real> s;
  Codec<Real, Store> codec;

  FL_HD long at(int i, int j) const { return long(i) + long(j) * m.nx; }
  FL_HD Real f_at(int a, long c) const { return codec.load(m.src[a * m.n + c], a); }
  FL_HD bool is_solid(long c) const { return kSolid && m.solid[c] != 0; }

  // The value streamed along a from the grid cell sc into the cell c: half-way
  // bounce-back where sc is an obstacle; with kBed, Zhou's centred bed-slope force on
  // the link sc -> c: F = -g h dz/dx with h the mean of the two depths and
  // dz = z(c) - z(sc) = (e_a . grad z) dt. With the weights w_a of the equilibrium's
  // g h^2 term (1/3, 1/12; sum w_a c_a c_a = I) a lake at rest stays at rest exactly:
  // w_a G/2 (h_s^2 - h_c^2) cancels the difference of the streamed equilibria.
  // (HONEI's uniform 1/6 does not.)
  FL_HD Real pull(int a, long c, long sc, Real h_here, Real z_here) const {
    if (is_solid(sc)) return f_at(opposite(a), c);
    Real v = f_at(a, sc);
    if (kBed) v -= source_weight<Real>(a) * p.ge2 * Real(0.5) * (m.h_prev[sc] + h_here) * (z_here - m.z[sc]);
    return v;
  }

  FL_HD void operator()(int i, int j) const {
    using std::cbrt;
    using std::sqrt;
    const long c = at(i, j);
    if (is_solid(c)) {  // obstacles keep their (unused) values
      for (int a = 0; a < kQ; ++a) m.dst[a * m.n + c] = m.src[a * m.n + c];
      if (kBed) m.h_next[c] = Real(0);
      return;
    }
    Real f[kQ];
    bool open = false;  // some direction comes through an open side
    f[0] = f_at(0, c);
    const Real h_here = kBed ? m.h_prev[c] : Real(0);
    const Real z_here = kBed ? m.z[c] : Real(0);
    if (i > 0 && i < m.nx - 1 && j > 0 && j < m.ny - 1) {
      // All but the outermost ring of cells: every source is a cell of the grid, so
      // the sides' rules are left out of the path nearly every cell takes. Measured on
      // the H100 (docs/performance.md): with them in, the 16-bit storage ran at half
      // its speed now and the bed variant in float at 56% of the copy bandwidth.
      for (int a = 1; a < kQ; ++a) f[a] = pull(a, c, c - cx(a) - long(cy(a)) * m.nx, h_here, z_here);
    } else {
      for (int a = 1; a < kQ; ++a) {
        int si = i - cx(a), sj = j - cy(a);
        int side = -1;  // the side the source lies beyond, if any
        if (si < 0 || si >= m.nx) {
          if (s.kind[0] == int(SweSide::Periodic)) si = si < 0 ? m.nx - 1 : 0;
          else side = si < 0 ? 0 : 1;
        }
        if (sj < 0 || sj >= m.ny) {
          if (s.kind[2] == int(SweSide::Periodic)) sj = sj < 0 ? m.ny - 1 : 0;
          else if (side < 0 || s.kind[side] != int(SweSide::Wall)) side = sj < 0 ? 2 : 3;
          // a corner: a wall on either side wins; else the y side's rule
        }
        if (side < 0) {
          f[a] = pull(a, c, at(si, sj), h_here, z_here);
          continue;
        }
        const int kind = s.kind[side];
        if (kind == int(SweSide::Wall)) {
          f[a] = f_at(opposite(a), c);
        } else if (kind == int(SweSide::Slip)) {
          // Specular reflection: the mirror direction, from the cell beside this one
          // along the side (its tangential shift); bounce-back where that is outside.
          const bool lr = side <= 1;
          const int b = lr ? mirror_x(a) : mirror_y(a);
          int ti = lr ? i : i - cx(a), tj = lr ? j - cy(a) : j;
          // Along a periodic side the shift wraps, as streaming does (at the corner of
          // a slip side and a periodic one).
          if (s.kind[0] == int(SweSide::Periodic)) ti = ti < 0 ? m.nx - 1 : ti >= m.nx ? 0 : ti;
          if (s.kind[2] == int(SweSide::Periodic)) tj = tj < 0 ? m.ny - 1 : tj >= m.ny ? 0 : tj;
          if (ti < 0 || ti >= m.nx || tj < 0 || tj >= m.ny || is_solid(at(ti, tj))) f[a] = f_at(opposite(a), c);
          else f[a] = f_at(b, at(ti, tj));
        } else {
          open = true;
          f[a] = Real(0);  // filled below, once the cell's own state is known
        }
      }
    }
    if (open) fill_open(i, j, c, f);
    (void)open;

    // Depth and momentum (lattice units) after streaming and the bed force.
    Real h = Real(0), Mx = Real(0), My = Real(0);
    for (int a = 0; a < kQ; ++a) {
      h += f[a];
      Mx += Real(cx(a)) * f[a];
      My += Real(cy(a)) * f[a];
    }
    const Real inv_h = Real(1) / h;  // h <= 0 gives inf or NaN: the guard stops the run
    Real Ux = Mx * inv_h, Uy = My * inv_h;
    if (p.friction != int(SweFriction::None)) {
      // Bottom friction S = -C_f u |u| (Manning C_f = g n^2 / h^(1/3), Chezy g / C^2),
      // point-implicit: h u' = h u / (1 + dt C_f |u| / h), which cannot reverse the flow.
      // The momentum change goes into the distributions with the weights w_a.
      const Real speed = sqrt(Ux * Ux + Uy * Uy);
      Real k = p.friction_k * speed * inv_h;
      if (p.friction == int(SweFriction::Manning)) k *= Real(1) / cbrt(h);
      const Real r = Real(1) / (Real(1) + k) - Real(1);
      const Real dMx = Mx * r, dMy = My * r;
      for (int a = 1; a < kQ; ++a) f[a] += source_weight<Real>(a) * (Real(cx(a)) * dMx + Real(cy(a)) * dMy);
      Ux += Ux * r;
      Uy += Uy * r;
    }
    const Real G = p.ge2 * h;
    Real feq[kQ];
    for (int a = 0; a < kQ; ++a) feq[a] = equilibrium<Real>(a, h, G, Ux, Uy);
    Real omega = p.omega;
    if (p.smag > Real(0)) {
      // Smagorinsky eddy viscosity through the relaxation time (Hou et al. 1996, with
      // the depth in place of the density): tau_t = (tau + sqrt(tau^2 + 18 sqrt2 C^2 Q / h)) / 2,
      // Q = |Pi_neq| the non-equilibrium momentum flux in lattice units.
      Real pxx = 0, pyy = 0, pxy = 0;
      for (int a = 1; a < kQ; ++a) {
        const Real d = f[a] - feq[a];
        pxx += Real(cx(a) * cx(a)) * d;
        pyy += Real(cy(a) * cy(a)) * d;
        pxy += Real(cx(a) * cy(a)) * d;
      }
      const Real q = sqrt(pxx * pxx + pyy * pyy + Real(2) * pxy * pxy);
      omega = Real(2) / (p.tau + sqrt(p.tau * p.tau + p.smag * q * inv_h));
    }
    if (p.trt) {
      // Two relaxation times: the symmetric part of each pair (a, opposite a) relaxes
      // at omega (viscosity), the antisymmetric part at omega_minus.
      const Real om = p.smag > Real(0) ? Real(1) / (Real(0.5) + Real(0.25) / (Real(1) / omega - Real(0.5))) : p.omega_minus;
      Real out[kQ];
      out[0] = f[0] - omega * (f[0] - feq[0]);
      for (int a = 1; a < kQ; ++a) {
        const int b = opposite(a);
        const Real sp = Real(0.5) * ((f[a] + f[b]) - (feq[a] + feq[b]));
        const Real sm = Real(0.5) * ((f[a] - f[b]) - (feq[a] - feq[b]));
        out[a] = f[a] - omega * sp - om * sm;
      }
      for (int a = 0; a < kQ; ++a) m.dst[a * m.n + c] = codec.store(out[a], a);
    } else {
      for (int a = 0; a < kQ; ++a) m.dst[a * m.n + c] = codec.store(f[a] - omega * (f[a] - feq[a]), a);
    }
    if (kBed) m.h_next[c] = h;
  }

  // Directions that enter through an open side, from the ones streamed in (Zou & He
  // 1997, written for Zhou's equilibrium): with U_n the velocity into the domain,
  // the unknown sum is sum_out + h U_n, so h = h_known + 2 sum_out + h U_n fixes the
  // missing one of h and U_n (a discharge side gives h U_n = q / e, a velocity side
  // U_n, a depth side h); the tangential velocity is 0. The unknowns take the
  // non-equilibrium part of their opposites: f_a = f_a^eq + f_-a - f_-a^eq.
  // Zero-gradient sides copy the cell's own f_a of the last step instead.
  FL_HD void fill_open(int i, int j, long c, Real* f) const {
    for (int side = 0; side < 4; ++side) {
      const int kind = s.kind[side];
      if (kind < int(SweSide::InflowQ)) continue;  // not an open side
      const bool lr = side <= 1;
      if (lr ? (side == 0 ? i != 0 : i != m.nx - 1) : (side == 2 ? j != 0 : j != m.ny - 1)) continue;
      const int inward = (side == 0 || side == 2) ? 1 : -1;
      if (kind == int(SweSide::OutflowFree)) {
        for (int a = 1; a < kQ; ++a)
          if ((lr ? cx(a) : cy(a)) == inward) f[a] = f_at(a, c);
        continue;
      }
      Real known = 0, out = 0;
      for (int a = 0; a < kQ; ++a) {
        const int cn = (lr ? cx(a) : cy(a)) * inward;
        if (cn == 0) known += f[a];
        else if (cn < 0) out += f[a];
      }
      const Real val = s.value[side][lr ? j : i];
      Real h, Un;
      if (kind == int(SweSide::OutflowH)) {
        h = val;
        Un = (h - known - Real(2) * out) / h;
      } else if (kind == int(SweSide::InflowQ)) {
        h = known + Real(2) * out + val * p.inv_e;
        Un = val * p.inv_e / h;
      } else {
        Un = val * p.inv_e;
        h = (known + Real(2) * out) / (Real(1) - Un);
      }
      const Real Ux = lr ? Un * Real(inward) : Real(0), Uy = lr ? Real(0) : Un * Real(inward), G = p.ge2 * h;
      for (int a = 1; a < kQ; ++a) {
        if ((lr ? cx(a) : cy(a)) != inward) continue;
        const int b = opposite(a);
        f[a] = equilibrium<Real>(a, h, G, Ux, Uy) + f[b] - equilibrium<Real>(b, h, G, Ux, Uy);
      }
    }
  }
};

}  // namespace flowlua::lbm_swe
