// The continuity equation of the cells that immersed bodies cut (core/immersed.hpp),
// as the pressure right-hand side takes it: a cut cell counts the flux through the
// fluid part of each of its edges (a velocity profile linear along the edge from the
// body's at the crossing, core/immersed.hpp FaceForcing::edge_weight) and through
// the body's surface in it, the mass balance of a cut cell (Seo & Mittal 2011,
// J. Comput. Phys. 230, 7347-7363, sec. 3). Summed over the cells, the edges cancel
// pairwise and the surface fluxes add up to the bodies' own: whatever the accuracy
// of one cut cell, no fluid passes through a body. The pressure operator stays the
// five-point Laplacian of every solver.
//
// Consistency with that operator: the free faces enter at their predictor less the
// pressure gradient of the last step, u* = F - dt grad p^n (the velocity at the end
// of the step if the pressure did not change), and every face of the cell adds
// dt grad p^n at full weight. The solve then finds the change of pressure whose
// five-point Laplacian removes the cut-cell imbalance of u*; the correction moves a
// face of aperture a by the full gradient where the balance counts a of it, so a cut
// cell keeps about (1 - a) of its imbalance for the next step: a fixed-point
// iteration, one sweep a step, that a steady state (pressure unchanged) satisfies
// exactly, with every face inside a body at its target.
#pragma once
#include <cstdint>

#include "core/immersed.hpp"
#include "models/projection/fields.hpp"

namespace flowlua::projection {

template <class Real>
struct ImmersedMass {
  ForcingView<Real> u, v;
  const Real* surface_flux;
  const std::int8_t* merge;  // ImmersedGeometry::merge

  // dt grad p^n at u face (i, j) or v face (i, j), 0 where the face is no unknown.
  template <class Cells>
  FL_HD Real dt_gp(const State<Real>& s, const Cells& cells, Real dt, bool is_u, int i, int j) const {
    if (is_u) {
      if (!u_unknown(cells, s.nb, i, j)) return 0;
      return dt * s.idx * (s.p[s.at(s.nb.east(i), j)] - s.p[s.at(i, j)]);
    }
    if (!v_unknown(cells, s.nb, i, j)) return 0;
    return dt * s.idy * (s.p[s.at(i, s.nb.north(j))] - s.p[s.at(i, j)]);
  }

  // The flux per unit edge length through u face (i, j) (is_u) or v face (i, j)
  // (FaceForcing::edge_weight), with u* for the velocities, plus dt grad p^n.
  template <class Cells>
  FL_HD Real face(const State<Real>& s, const Cells& cells, Real dt, bool is_u, int i, int j) const {
    const ForcingView<Real>& f = is_u ? u : v;
    const std::size_t c = s.at(i, j);
    const Real val = is_u ? s.f[c] : s.g[c];
    const Real a = f.aperture[c];
    if (a == Real(1)) return val;
    const Real gp = dt_gp(s, cells, dt, is_u, i, j);
    Real flux = gp + f.edge_const[c];
    if (f.code[c] == kFaceFree) flux += a * (val - gp);
    const int side = f.edge_side[c];
    if (side != 0) {  // the next face along the edge: +-y for u, +-x for v
      const int in = is_u ? i : i + side, jn = is_u ? j + side : j;
      const std::size_t cn = s.at(in, jn);
      flux += f.edge_weight[c] * ((is_u ? s.f[cn] : s.g[cn]) - dt_gp(s, cells, dt, is_u, in, jn));
    }
    return flux;
  }

  // The cut-cell divergence of u* plus the five-point divergence of dt grad p^n of
  // one cell.
  template <class Cells>
  FL_HD Real cell_dt(const State<Real>& s, const Cells& cells, Real dt, int i, int j) const {
    const Real fe = face(s, cells, dt, true, i, j), fw = face(s, cells, dt, true, s.nb.west(i), j);
    const Real fn = face(s, cells, dt, false, i, j), fs = face(s, cells, dt, false, i, s.nb.south(j));
    return (fe - fw) * s.idx + (fn - fs) * s.idy + surface_flux[s.at(i, j)];
  }

  // The right-hand side times dt of a cell that keeps continuity: its own, plus the
  // cut-cell divergence of u* of the source cells merged into it (without their
  // dt grad p^n, which their own equation holds; on the face they share with this
  // cell the two u* fluxes cancel, and this cell's dt grad p^n there remains).
  template <class Cells>
  FL_HD Real rhs_dt(const State<Real>& s, const Cells& cells, Real dt, int i, int j) const {
    Real r = cell_dt(s, cells, dt, i, j);
    const int m = merge[s.at(i, j)];
    if (m == 0) return r;
    for (int k = 0; k < 4; ++k) {
      if (!(m & (1 << k))) continue;
      const int a = k == 0 ? s.nb.west(i) : k == 1 ? s.nb.east(i) : i;
      const int b = k == 2 ? s.nb.south(j) : k == 3 ? s.nb.north(j) : j;
      const Real gp = (dt_gp(s, cells, dt, true, a, b) - dt_gp(s, cells, dt, true, s.nb.west(a), b)) * s.idx +
                      (dt_gp(s, cells, dt, false, a, b) - dt_gp(s, cells, dt, false, a, s.nb.south(b))) * s.idy;
      r += cell_dt(s, cells, dt, a, b) - gp;
    }
    return r;
  }
};

}  // namespace flowlua::projection
