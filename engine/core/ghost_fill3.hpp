// The 3D names of the staggered ghost fill (core/ghost_fill.hpp, one source for 2D and
// 3D): Velocity3{{u, v, w}, {nx, ny, nz}}, SideArrays3 (the six sides' values in
// backend memory), SideValues3 and fill_ghosts3.
#pragma once
#include "core/ghost_fill.hpp"

namespace flowlua {

template <class Real>
using Velocity3 = StaggeredVelocity<3, Real>;
template <class Real>
using SideValues3 = StaggeredSideValues<3, Real>;
template <class Real>
using FillSide3 = FillSide<3, Real>;
template <class Exec, class Real>
using SideArrays3 = StaggeredSideArrays<3, Exec, Real>;

template <class Exec, class Real>
void fill_ghosts3(const Velocity3<Real>& vel, const SideValues3<Real>& b) {
  fill_ghosts<3, Exec, Real>(vel, b);
}

}  // namespace flowlua
