// What passes through the sides of the fractional-step model's box: the volume flux
// through each side (the diagnostics inflow_flux and outflow_flux, so a case can check
// the mass balance exactly: their difference is the sum of div u over the cells times
// their volume) and the sides' given velocities in the CFL rate (an inflow into fluid
// at rest sets the first dt). Both backends, D = 2 or 3.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>

#include "core/boundary.hpp"
#include "core/ghost_fill.hpp"
#include "models/fractional_step/fs_state.hpp"
#include "sim/solver.hpp"

namespace flowlua::fractional_step {

// The volume flux through one side, into the domain positive: the side's normal
// faces times their area, summed over its transverse cells (one reduction). The
// diagnostics inflow_flux and outflow_flux add it up over the sides that bring flow
// in and those that let it out, so a case can check the mass balance exactly.
template <int D, class Real>
struct SideFlux {
  State<D, Real> s;
  int side;
  double area;  // of one face
  FL_HD double operator()(int a, int b) const {
    const int A = side / 2;
    const bool high = side % 2 == 1;
    Cell<D> f{};
    int t = 0;
    for (int d = 0; d < D; ++d)
      if (d != A) f.c[d] = t++ == 0 ? a : b;
    f.c[A] = high ? s.n[A] : 0;
    const double u = double(s.vel[A][s.at(f)]);
    return (high ? -u : u) * area;
  }
};


// inflow_flux: the volume flux in through the sides with a velocity given on them
// (inflow, custom; walls add 0 and alone report nothing); outflow_flux: out through
// the outflow sides. One reduction per side, in backend memory. h: the cell sizes.
template <int D, class Exec, class Real>
void add_side_fluxes(const State<D, Real>& s, const std::array<SideCondition, 2 * D>& sides, const double* h,
                     Diagnostics& d) {
  double in = 0, out = 0;
  bool any_in = false, any_out = false;
  for (int side = 0; side < 2 * D; ++side) {
    const SideCondition& b = sides[side];
    const bool inflow = b.kind == BoundaryKind::Dirichlet, outflow = b.kind == BoundaryKind::Outflow;
    if (!inflow && !outflow) continue;
    double area = 1;
    for (int a = 0; a < D; ++a)
      if (a != side / 2) area *= h[a];
    int na, nb;
    side_extent<D>(s.n, side, na, nb);
    const double q = Exec::reduce_sum(1, na, 1, nb, SideFlux<D, Real>{s, side, area});
    if (inflow) {
      in += q;
      any_in = any_in || (b.label != "wall" && b.label != "moving wall");
    } else {
      out -= q;
      any_out = true;
    }
  }
  if (any_in) d.add("inflow_flux", in);
  if (any_out) d.add("outflow_flux", out);
}

// max over the sides with given velocities of sum_a |u_a| / h_a (the host's values).
template <int D>
double side_rate(const std::array<SideCondition, 2 * D>& sides, const double* h) {
  double r = 0;
  for (int side = 0; side < 2 * D; ++side) {
    const SideCondition& b = sides[side];
    if (b.kind != BoundaryKind::Dirichlet) continue;
    int A, T1, T2;
    side_axes_of<D>(side, A, T1, T2);
    for (std::size_t q = 0; q < b.normal.size(); ++q) {
      double t = std::abs(b.normal[q]) / h[A];
      if (q < b.tangential.size()) t += std::abs(b.tangential[q]) / h[T1];
      if (D == 3 && q < b.tangential2.size()) t += std::abs(b.tangential2[q]) / h[T2];
      r = std::max(r, t);
    }
  }
  return r;
}

}  // namespace flowlua::fractional_step
