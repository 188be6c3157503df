// Ghost cells and boundary faces of the staggered velocity in 2D (u on east faces, v
// on north faces; core/grid.hpp) or 3D (and w on front faces; core/grid3.hpp), by
// NaSt2D's rules (Griebel et al. 1998, sec. 3.1.3) applied per side:
//   Dirichlet (wall, moving wall, inflow): the normal component is set on the
//     boundary face; each tangential component is mirrored into the ghost layer so
//     that the average of ghost and first interior value is the side's value there;
//   slip: normal component 0, tangential ones mirrored with the same sign;
//   outflow: zero normal gradient (the boundary face copies the first interior face,
//     the ghosts copy the first interior layer; a model that treats the outflow
//     face as an unknown, as the projection and fractional_step models do, sets it
//     after the fill);
//   periodic: every component copied from the opposite side.
// Each side is one launch over its transverse indices, ghosts included, so edges
// are filled too; sides go x, y[, z], the periodic ones in a second pass, so edges
// between a periodic and a wall side take the wall's value wrapped (as in 2D).
// One source for D = 2 and 3 (a 2D side has one transverse axis: its second one is
// a single index); point functions shared by both backends; fill_ghosts launches
// them. core/ghost_fill3.hpp keeps the 3D names.
#pragma once
#include <vector>

#include "backend/device_array.hpp"
#include "core/boundary.hpp"
#include "core/grid.hpp"
#include "core/grid3.hpp"
#include "core/hd.hpp"

namespace flowlua {

template <int D, class Real>
struct StaggeredVelocity {
  Real* c[D];  // u, v[, w] in the grid layout
  int n[D];    // nx, ny[, nz]
  FL_HD std::size_t at(const int* x) const {
    std::size_t k = std::size_t(x[D - 1]);
    for (int d = D - 2; d >= 0; --d) k = k * std::size_t(n[d] + 2) + std::size_t(x[d]);
    return k;
  }
  FL_HD std::size_t at(int i, int j, int k = 0) const {
    const int x[3] = {i, j, k};
    return at(x);
  }
};

// The axes of a side: A its normal, T1 (and in 3D T2) its transverse axes in x, y, z
// order (T2 = -1 in 2D).
template <int D>
FL_HD void side_axes_of(int side, int& A, int& T1, int& T2) {
  A = side / 2;
  if (D == 2) {
    T1 = 1 - A;
    T2 = -1;
  } else {
    T1 = A == 0 ? 1 : 0;
    T2 = A == 2 ? 1 : 2;
  }
}

// The number of cells of a side along its transverse axes (nb = 1 in 2D).
template <int D>
FL_HD void side_extent(const int* n, int side, int& na, int& nb) {
  int A, T1, T2;
  side_axes_of<D>(side, A, T1, T2);
  na = n[T1];
  nb = D == 3 ? n[T2] : 1;
}

// One side's values in backend memory, padded: (na + 2) x (nb + 2) per array, index
// a + (na + 2) b over the side's transverse cell indices 0 .. n + 1 (the padding
// repeats the edge cells). normal > 0 points into the domain; t1, t2 are the
// velocity components along the side's first and second transverse axes (x, y, z
// order: v, w on left/right; u, w on bottom/top; u, v on back/front; in 2D t1 only).
template <int D, class Real>
struct StaggeredSideValues {
  const Real* normal[2 * D];
  const Real* t1[2 * D];
  const Real* t2[2 * D];
  int kind[2 * D];  // BoundaryKind
};

template <int D, class Real>
struct FillSide {
  StaggeredVelocity<D, Real> vel;
  StaggeredSideValues<D, Real> b;
  int side;  // 0 left .. 2D - 1 (core/boundary.hpp)
  FL_HD void operator()(int a, int bb) const {
    int A, T1, T2;
    side_axes_of<D>(side, A, T1, T2);
    const bool high = side % 2 == 1;
    int na, nb;
    side_extent<D>(vel.n, side, na, nb);
    const int nA = vel.n[A];
    auto at = [&](int along, int x1, int x2) {
      int idx[3] = {0, 0, 0};
      idx[A] = along;
      idx[T1] = x1;
      if (D == 3) idx[T2] = x2;
      return vel.at(idx);
    };
    Real* N = vel.c[A];
    Real* U1 = vel.c[T1];
    Real* U2 = nullptr;
    if constexpr (D == 3) U2 = vel.c[T2];
    const int face = high ? nA : 0, ghost = high ? nA + 1 : 0, inner = high ? nA : 1;
    const int stride = na + 2;
    switch (BoundaryKind(b.kind[side])) {
      case BoundaryKind::Dirichlet: {
        const int ac = a < 1 ? 1 : (a > na ? na : a), bc = bb < 1 ? 1 : (bb > nb ? nb : bb);
        const int af = a < 1 ? 0 : (a > na - 1 ? na - 1 : a), bf = bb < 1 ? 0 : (bb > nb - 1 ? nb - 1 : bb);
        const Real nv = b.normal[side][ac + stride * bc];
        N[at(face, a, bb)] = high ? -nv : nv;
        const Real w1 = Real(0.5) * (b.t1[side][af + stride * bc] + b.t1[side][af + 1 + stride * bc]);
        U1[at(ghost, a, bb)] = 2 * w1 - U1[at(inner, a, bb)];
        if (D == 3) {
          const Real w2 = Real(0.5) * (b.t2[side][ac + stride * bf] + b.t2[side][ac + stride * (bf + 1)]);
          U2[at(ghost, a, bb)] = 2 * w2 - U2[at(inner, a, bb)];
        }
        break;
      }
      case BoundaryKind::Slip:
        N[at(face, a, bb)] = 0;
        U1[at(ghost, a, bb)] = U1[at(inner, a, bb)];
        if (D == 3) U2[at(ghost, a, bb)] = U2[at(inner, a, bb)];
        break;
      case BoundaryKind::Outflow:
        N[at(face, a, bb)] = N[at(high ? nA - 1 : 1, a, bb)];
        U1[at(ghost, a, bb)] = U1[at(inner, a, bb)];
        if (D == 3) U2[at(ghost, a, bb)] = U2[at(inner, a, bb)];
        break;
      case BoundaryKind::Periodic: {
        const int from = high ? 1 : nA;  // ghost 0 <- n, ghost n + 1 <- 1
        for (int c = 0; c < D; ++c) vel.c[c][at(ghost, a, bb)] = vel.c[c][at(from, a, bb)];
        break;
      }
    }
  }
};

// The sides' values in backend memory, from Boundaries (2D) or Boundaries3 (host
// values per boundary cell, na * nb, a fastest; see core/boundary.hpp).
template <int D, class Exec, class Real>
class StaggeredSideArrays {
 public:
  StaggeredSideArrays(const Grid& g, const Boundaries& sides) : n_{g.nx, g.ny} {
    static_assert(D == 2);
    for (int s = 0; s < 2 * D; ++s) set(s, sides[s]);
  }
  StaggeredSideArrays(const Grid3& g, const Boundaries3& sides) : n_{g.nx, g.ny, g.nz} {
    static_assert(D == 3);
    for (int s = 0; s < 2 * D; ++s) set(s, sides[s]);
  }
  // New values for one side (same kind): inflow profiles that change with time.
  void set(int s, const SideCondition& c) {
    int na, nb;
    side_extent<D>(n_, s, na, nb);
    kind_[s] = int(c.kind);
    normal_[s] = DeviceArray<Exec, Real>(std::size_t(na + 2) * (nb + 2));
    t1_[s] = DeviceArray<Exec, Real>(normal_[s].size());
    t2_[s] = DeviceArray<Exec, Real>(normal_[s].size());
    normal_[s].upload(pad(c.normal, na, nb));
    t1_[s].upload(pad(c.tangential, na, nb));
    t2_[s].upload(pad(c.tangential2, na, nb));
  }
  StaggeredSideValues<D, Real> values() const {
    StaggeredSideValues<D, Real> v{};
    for (int s = 0; s < 2 * D; ++s) {
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
  int n_[D];
  int kind_[2 * D] = {};
  DeviceArray<Exec, Real> normal_[2 * D], t1_[2 * D], t2_[2 * D];
};

// Fills every side of the velocity: the non-periodic sides x, y[, z], then the
// periodic ones in the same order.
template <int D, class Exec, class Real>
void fill_ghosts(const StaggeredVelocity<D, Real>& vel, const StaggeredSideValues<D, Real>& b) {
  for (int pass = 0; pass < 2; ++pass)
    for (int s = 0; s < 2 * D; ++s) {
      if ((b.kind[s] == int(BoundaryKind::Periodic)) != (pass == 1)) continue;
      int na, nb;
      side_extent<D>(vel.n, s, na, nb);
      Exec::for_each(0, na + 1, 0, D == 3 ? nb + 1 : 0, FillSide<D, Real>{vel, b, s});
    }
}

}  // namespace flowlua
