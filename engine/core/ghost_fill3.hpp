// Ghost cells and boundary faces of the 3D staggered velocity (u on east faces, v on
// north faces, w on front faces; core/grid3.hpp), by NaSt2D's rules (Griebel et al.
// 1998, sec. 3.1.3) applied per side in three dimensions:
//   Dirichlet (wall, moving wall, inflow): the normal component is set on the
//     boundary face; each tangential component is mirrored into the ghost layer so
//     that the average of ghost and first interior value is the side's value there;
//   slip: normal component 0, tangential ones mirrored with the same sign;
//   outflow: zero normal gradient (the boundary face copies the first interior face,
//     the ghosts copy the first interior layer; a model that treats the outflow
//     face as an unknown, as the 2D projection model does, overwrites it);
//   periodic: all three components copied from the opposite side.
// Each side is one launch over its transverse indices, ghosts included, so edges
// are filled too; sides go x, y, z, the periodic ones in a second pass, so edges
// between a periodic and a wall side take the wall's value wrapped (as in 2D).
// Point functions are shared by both backends; fill_ghosts3 launches them.
#pragma once
#include <vector>

#include "backend/device_array.hpp"
#include "core/boundary.hpp"
#include "core/grid3.hpp"
#include "core/hd.hpp"

namespace flowlua {

template <class Real>
struct Velocity3 {
  Real* c[3];  // u, v, w in the Grid3 layout
  int n[3];    // nx, ny, nz
  FL_HD std::size_t at(int i, int j, int k) const {
    return (std::size_t(k) * (n[1] + 2) + std::size_t(j)) * (n[0] + 2) + i;
  }
};

// One side's values on the device, padded: (na + 2) x (nb + 2) per array, index
// a + (na + 2) b over the side's transverse cell indices 0 .. n + 1 (the padding
// repeats the edge cells). normal > 0 points into the domain; t1, t2 are the
// velocity components along the side's first and second transverse axes (x, y, z
// order: v, w on left/right; u, w on bottom/top; u, v on back/front).
template <class Real>
struct SideValues3 {
  const Real* normal[6];
  const Real* t1[6];
  const Real* t2[6];
  int kind[6];  // BoundaryKind
};

template <class Real>
struct FillSide3 {
  Velocity3<Real> vel;
  SideValues3<Real> b;
  int side;  // 0 left .. 5 front (core/boundary.hpp)
  FL_HD void operator()(int a, int bb) const {
    const int A = side / 2, T1 = A == 0 ? 1 : 0, T2 = A == 2 ? 1 : 2;
    const bool high = side % 2 == 1;
    const int nA = vel.n[A], na = vel.n[T1], nb = vel.n[T2];
    auto at = [&](int along, int x1, int x2) {
      int idx[3];
      idx[A] = along;
      idx[T1] = x1;
      idx[T2] = x2;
      return vel.at(idx[0], idx[1], idx[2]);
    };
    Real* N = vel.c[A];
    Real* U1 = vel.c[T1];
    Real* U2 = vel.c[T2];
    const int face = high ? nA : 0, ghost = high ? nA + 1 : 0, inner = high ? nA : 1;
    const int stride = na + 2;
    switch (BoundaryKind(b.kind[side])) {
      case BoundaryKind::Dirichlet: {
        const int ac = a < 1 ? 1 : (a > na ? na : a), bc = bb < 1 ? 1 : (bb > nb ? nb : bb);
        const int af = a < 1 ? 0 : (a > na - 1 ? na - 1 : a), bf = bb < 1 ? 0 : (bb > nb - 1 ? nb - 1 : bb);
        const Real nv = b.normal[side][ac + stride * bc];
        N[at(face, a, bb)] = high ? -nv : nv;
        const Real w1 = Real(0.5) * (b.t1[side][af + stride * bc] + b.t1[side][af + 1 + stride * bc]);
        const Real w2 = Real(0.5) * (b.t2[side][ac + stride * bf] + b.t2[side][ac + stride * (bf + 1)]);
        U1[at(ghost, a, bb)] = 2 * w1 - U1[at(inner, a, bb)];
        U2[at(ghost, a, bb)] = 2 * w2 - U2[at(inner, a, bb)];
        break;
      }
      case BoundaryKind::Slip:
        N[at(face, a, bb)] = 0;
        U1[at(ghost, a, bb)] = U1[at(inner, a, bb)];
        U2[at(ghost, a, bb)] = U2[at(inner, a, bb)];
        break;
      case BoundaryKind::Outflow:
        N[at(face, a, bb)] = N[at(high ? nA - 1 : 1, a, bb)];
        U1[at(ghost, a, bb)] = U1[at(inner, a, bb)];
        U2[at(ghost, a, bb)] = U2[at(inner, a, bb)];
        break;
      case BoundaryKind::Periodic: {
        const int from = high ? 1 : nA;  // ghost 0 <- n, ghost n + 1 <- 1
        for (int c = 0; c < 3; ++c) vel.c[c][at(ghost, a, bb)] = vel.c[c][at(from, a, bb)];
        break;
      }
    }
  }
};

// The six sides' values in backend memory, from Boundaries3 (host values per
// boundary cell, na * nb, a fastest; see core/boundary.hpp).
template <class Exec, class Real>
class SideArrays3 {
 public:
  SideArrays3(const Grid3& g, const Boundaries3& sides) : n_{g.nx, g.ny, g.nz} {
    for (int s = 0; s < 6; ++s) set(s, sides[s]);
  }
  // New values for one side (same kind): inflow profiles that change with time.
  void set(int s, const SideCondition& c) {
    const int A = s / 2, na = n_[A == 0 ? 1 : 0], nb = n_[A == 2 ? 1 : 2];
    kind_[s] = int(c.kind);
    normal_[s] = DeviceArray<Exec, Real>(std::size_t(na + 2) * (nb + 2));
    t1_[s] = DeviceArray<Exec, Real>(normal_[s].size());
    t2_[s] = DeviceArray<Exec, Real>(normal_[s].size());
    normal_[s].upload(pad(c.normal, na, nb));
    t1_[s].upload(pad(c.tangential, na, nb));
    t2_[s].upload(pad(c.tangential2, na, nb));
  }
  SideValues3<Real> values() const {
    SideValues3<Real> v{};
    for (int s = 0; s < 6; ++s) {
      v.normal[s] = normal_[s].data();
      v.t1[s] = t1_[s].data();
      v.t2[s] = t2_[s].data();
      v.kind[s] = kind_[s];
    }
    return v;
  }
  int kind(int s) const { return kind_[s]; }

 private:
  // na * nb values (or none: zeros) -> (na + 2) x (nb + 2), edges repeated.
  static std::vector<Real> pad(const std::vector<double>& v, int na, int nb) {
    std::vector<Real> out(std::size_t(na + 2) * (nb + 2), Real(0));
    if (v.size() != std::size_t(na) * nb) return out;
    for (int b = 0; b <= nb + 1; ++b)
      for (int a = 0; a <= na + 1; ++a) {
        const int ac = a < 1 ? 1 : a > na ? na : a, bc = b < 1 ? 1 : b > nb ? nb : b;
        out[std::size_t(a) + std::size_t(na + 2) * b] = Real(v[std::size_t(ac - 1) + std::size_t(na) * (bc - 1)]);
      }
    return out;
  }
  int n_[3];
  int kind_[6] = {0, 0, 0, 0, 0, 0};
  DeviceArray<Exec, Real> normal_[6], t1_[6], t2_[6];
};

// Fills every side of (u, v, w): the non-periodic sides x, y, z, then the periodic
// ones x, y, z.
template <class Exec, class Real>
void fill_ghosts3(const Velocity3<Real>& vel, const SideValues3<Real>& b) {
  for (int pass = 0; pass < 2; ++pass)
    for (int s = 0; s < 6; ++s) {
      if ((b.kind[s] == int(BoundaryKind::Periodic)) != (pass == 1)) continue;
      const int A = s / 2, na = vel.n[A == 0 ? 1 : 0], nb = vel.n[A == 2 ? 1 : 2];
      Exec::for_each(0, na + 1, 0, nb + 1, FillSide3<Real>{vel, b, s});
    }
}

}  // namespace flowlua
