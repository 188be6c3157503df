// Outflow sides of the fractional-step model (flow.outflow(): zero normal gradient of
// the velocity, p = 0 on the side), as the projection model takes them
// (models/projection/boundary_fill.hpp, OutflowFaces): the side's normal face is an
// unknown. Its predicted velocity u* copies the first interior face's (zero gradient:
// the ghost fill's outflow rule applied to u*, fs_sides.hpp), and the correction here
// uses the ghost pressure -p of the Dirichlet condition p = 0 on the face (the cell
// flags couple it so, core/flags.hpp), so the last cells are held divergence-free like
// every other and the outflow carries what the inflow brings (to the pressure
// solver's tolerance). NaSt2D instead copies u after the projection, which loses mass
// in the last layer. One launch per outflow side over its transverse cells; both
// backends, D = 2 or 3.
#pragma once
#include "models/fractional_step/fs_state.hpp"

namespace flowlua::fractional_step {

template <int D, class Real>
struct OutflowFaces {
  State<D, Real> s;
  int side;  // 0 left .. 2D - 1 (core/boundary.hpp)
  Real dt;
  FL_HD void operator()(int a, int b) const {
    const int A = side / 2;
    const bool high = side % 2 == 1;
    Cell<D> x{};
    int t = 0;
    for (int d = 0; d < D; ++d)
      if (d != A) x.c[d] = t++ == 0 ? a : b;  // the transverse axes in x, y, z order
    x.c[A] = high ? s.n[A] : 1;               // the cell beside the side
    Cell<D> f = x;                            // the side's face: n (high) or 0 (low)
    if (!high) f.c[A] = 0;
    const std::size_t k = s.at(f);
    // p = 0 on the face, half a cell from the centre: dp/dn = (0 - p) / (h / 2)
    const Real g = dt * Real(2) * s.p[s.at(x)] * s.inv_h[A];
    s.vel[A][k] = high ? s.star[A][k] + g : s.star[A][k] - g;
  }
};

}  // namespace flowlua::fractional_step
