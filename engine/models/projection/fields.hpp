// The projection model's state as the point functions see it: raw pointers into
// backend memory plus the grid numbers. Copied by value into every launch.
#pragma once
#include <cstddef>

#include "core/flags.hpp"
#include "core/hd.hpp"

namespace flowlua::projection {

template <class Real>
struct State {
  Real *u, *v;   // velocity on east / north faces
  Real *f, *g;   // F, G: velocity after the explicit momentum step (Griebel eq. 3.40)
  Real *p;       // kinematic pressure p / rho at cell centres
  Real *rhs;     // right-hand side of the pressure Poisson equation
  const CellFlags* flags;
  Neighbours nb;
  Real dx, dy;
  Real idx, idy;  // 1/dx, 1/dy: kernels multiply (a division costs a dozen instructions)

  FL_HD int nx() const { return nb.nx; }
  FL_HD int ny() const { return nb.ny; }
  FL_HD std::size_t at(int i, int j) const { return std::size_t(j) * (nb.nx + 2) + i; }
  FL_HD bool fluid(int i, int j) const { return is_fluid(flags[at(i, j)]); }
  // A u face is an unknown when the cells on both sides are fluid; with periodic x
  // the face i = nx joins cell nx to cell 1.
  FL_HD bool u_unknown(int i, int j) const { return fluid(i, j) && fluid(nb.east(i), j); }
  FL_HD bool v_unknown(int i, int j) const { return fluid(i, j) && fluid(i, nb.north(j)); }
};

// The same tests with the flag word taken from a FlagArray or computed by
// OpenDomainFlags (core/flags.hpp): the kernel variants differ only in this.
template <class Cells>
FL_HD bool u_unknown(const Cells& cells, const Neighbours& nb, int i, int j) {
  return is_fluid(cells.at(i, j)) && is_fluid(cells.at(nb.east(i), j));
}
template <class Cells>
FL_HD bool v_unknown(const Cells& cells, const Neighbours& nb, int i, int j) {
  return is_fluid(cells.at(i, j)) && is_fluid(cells.at(i, nb.north(j)));
}

}  // namespace flowlua::projection
