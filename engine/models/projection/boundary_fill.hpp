// Ghost cells and boundary faces of u and v (Griebel et al. 1998, sec. 3.1.3 for
// the domain sides, sec. 3.1.4 for obstacles). Interior kernels read these values
// and never branch on boundaries.
#pragma once
#include "core/boundary.hpp"
#include "models/projection/fields.hpp"

namespace flowlua::projection {

// A side of a block (several MPI ranks, decomposed.hpp) where a neighbouring block
// lies: no side of the domain, so the fill leaves it (the halo exchange fills it).
constexpr int kHaloSide = -1;

// Per-side values, one per boundary cell (index 1..n; 0 and n+1 repeat the ends so
// face averages need no special case). normal > 0 points into the domain. On a block
// of several ranks the values are the block's stretch of the side: local index q is
// the side's q + first_j (left, right) or q + first_i (bottom, top), and the ends are
// those of the whole side (whole_nx, whole_ny cells; 0: the state's own nx, ny, as on
// one rank, where first_* = 0).
template <class Real>
struct SideValues {
  const Real* normal[4];
  const Real* tangential[4];
  int kind[4];  // BoundaryKind, or kHaloSide
  int first_i = 0, first_j = 0;
  int whole_nx = 0, whole_ny = 0;
};

// The cell index (clamped to 1..n) and face index (clamped to 0..n-1) of the whole
// side for local index k of a block starting at `first` on a side of n cells.
FL_HD int side_cell(int k, int first, int n) {
  const int g = k + first;
  return (g < 1 ? 1 : g > n ? n : g) - first;
}
FL_HD int side_face(int k, int first, int n) {
  const int g = k + first;
  return (g < 1 ? 0 : g > n - 1 ? n - 1 : g) - first;
}

// Tangential wall velocity at face k of a side, between boundary cells k and k + 1.
template <class Real>
FL_HD Real face_average(const Real* t, int k) { return Real(0.5) * (t[k] + t[k + 1]); }

// Left and right sides, one call per row j = 0 .. ny + 1.
template <class Real>
struct FillSidesX {
  State<Real> s;
  SideValues<Real> b;
  bool periodic_pass;  // periodic sides are filled in a pass of their own, after the other direction
  FL_HD void operator()(int, int j) const {
    const int nx = s.nx(), ny = s.ny();
    Real* u = s.u;
    Real* v = s.v;
    const int wny = b.whole_ny ? b.whole_ny : ny;
    const int jc = side_cell(j, b.first_j, wny);  // cell index for normal values
    const int jf = side_face(j, b.first_j, wny);  // face index for tangential values
    for (int side = 0; side < 2; ++side) {
      const int k = b.kind[side];
      if ((k == int(BoundaryKind::Periodic)) != periodic_pass) continue;
      const bool left = side == 0;
      const int ib = left ? 0 : nx;           // the boundary u face
      const int ig = left ? 0 : nx + 1;       // the ghost v column
      const int ii = left ? 1 : nx;           // first interior cell
      switch (BoundaryKind(k)) {
        case BoundaryKind::Dirichlet:
          u[s.at(ib, j)] = left ? b.normal[side][jc] : -b.normal[side][jc];
          v[s.at(ig, j)] = 2 * face_average(b.tangential[side], jf) - v[s.at(ii, j)];
          break;
        case BoundaryKind::Slip:
          u[s.at(ib, j)] = 0;
          v[s.at(ig, j)] = v[s.at(ii, j)];
          break;
        case BoundaryKind::Outflow:  // the normal velocity is an unknown: see OutflowFaces
          if (j >= 1 && j <= ny && !s.fluid(ii, j)) u[s.at(ib, j)] = 0;
          v[s.at(ig, j)] = v[s.at(ii, j)];
          break;
        case BoundaryKind::Periodic:
          if (left) {
            u[s.at(0, j)] = u[s.at(nx, j)];
            v[s.at(0, j)] = v[s.at(nx, j)];
          } else {
            u[s.at(nx + 1, j)] = u[s.at(1, j)];
            v[s.at(nx + 1, j)] = v[s.at(1, j)];
          }
          break;
      }
    }
  }
};

// Bottom and top sides, one call per column i = 0 .. nx + 1.
template <class Real>
struct FillSidesY {
  State<Real> s;
  SideValues<Real> b;
  bool periodic_pass;
  FL_HD void operator()(int i, int) const {
    const int nx = s.nx(), ny = s.ny();
    Real* u = s.u;
    Real* v = s.v;
    const int wnx = b.whole_nx ? b.whole_nx : nx;
    const int ic = side_cell(i, b.first_i, wnx);
    const int iface = side_face(i, b.first_i, wnx);
    for (int side = 2; side < 4; ++side) {
      const int k = b.kind[side];
      if ((k == int(BoundaryKind::Periodic)) != periodic_pass) continue;
      const bool bottom = side == 2;
      const int jb = bottom ? 0 : ny;
      const int jg = bottom ? 0 : ny + 1;
      const int ji = bottom ? 1 : ny;
      switch (BoundaryKind(k)) {
        case BoundaryKind::Dirichlet:
          v[s.at(i, jb)] = bottom ? b.normal[side][ic] : -b.normal[side][ic];
          u[s.at(i, jg)] = 2 * face_average(b.tangential[side], iface) - u[s.at(i, ji)];
          break;
        case BoundaryKind::Slip:
          v[s.at(i, jb)] = 0;
          u[s.at(i, jg)] = u[s.at(i, ji)];
          break;
        case BoundaryKind::Outflow:
          if (i >= 1 && i <= nx && !s.fluid(i, ji)) v[s.at(i, jb)] = 0;
          u[s.at(i, jg)] = u[s.at(i, ji)];
          break;
        case BoundaryKind::Periodic:
          if (bottom) {
            v[s.at(i, 0)] = v[s.at(i, ny)];
            u[s.at(i, 0)] = u[s.at(i, ny)];
          } else {
            v[s.at(i, ny + 1)] = v[s.at(i, 1)];
            u[s.at(i, ny + 1)] = u[s.at(i, 1)];
          }
          break;
      }
    }
  }
};

// Outflow sides: zero normal gradient of velocity and p = 0 on the boundary face.
// The face's normal velocity is an unknown like an interior one: its F (or G) is
// copied from the first interior face (zero gradient), and the correction uses the
// ghost pressure -p of the Dirichlet condition, so the last cells stay exactly
// divergence-free. Unlike NaSt2D, which copies u after the projection and so loses
// mass in the last column, this conserves mass to the solver tolerance.
template <class Real>
struct OutflowFaces {
  State<Real> s;
  SideValues<Real> b;
  bool correct;  // false: set F/G after the momentum step; true: correct u/v after the solve
  Real dt;
  const double* step = nullptr;  // kernels.dt = "device": dt from step[0] instead (dt_rule.hpp)
  FL_HD void operator()(int k, int) const {
    const int nx = s.nx(), ny = s.ny();
    const Real d = step ? Real(step[0]) : dt;
    if (k >= 1 && k <= ny) {
      const int j = k;
      if (b.kind[0] == int(BoundaryKind::Outflow) && s.fluid(1, j)) {
        const std::size_t c = s.at(0, j);
        if (correct) s.u[c] = s.f[c] - d * s.idx * (s.p[s.at(1, j)] + s.p[s.at(1, j)]);
        else s.f[c] = s.f[s.at(1, j)];
      }
      if (b.kind[1] == int(BoundaryKind::Outflow) && s.fluid(nx, j)) {
        const std::size_t c = s.at(nx, j);
        if (correct) s.u[c] = s.f[c] + d * s.idx * (s.p[c] + s.p[c]);
        else s.f[c] = s.f[s.at(nx - 1, j)];
      }
    }
    if (k >= 1 && k <= nx) {
      const int i = k;
      if (b.kind[2] == int(BoundaryKind::Outflow) && s.fluid(i, 1)) {
        const std::size_t c = s.at(i, 0);
        if (correct) s.v[c] = s.g[c] - d * s.idy * (s.p[s.at(i, 1)] + s.p[s.at(i, 1)]);
        else s.g[c] = s.g[s.at(i, 1)];
      }
      if (b.kind[3] == int(BoundaryKind::Outflow) && s.fluid(i, ny)) {
        const std::size_t c = s.at(i, ny);
        if (correct) s.v[c] = s.g[c] + d * s.idy * (s.p[c] + s.p[c]);
        else s.g[c] = s.g[s.at(i, ny - 1)];
      }
    }
  }
};

// Faces that touch obstacle cells. A face between fluid and obstacle carries no
// flow (u = 0); a face between two obstacle cells is a ghost that mirrors the fluid
// face beside it, so the wall value (0) sits halfway (NaSt2D's B_N, B_S, ... rules,
// written per face so that no two threads write one value). A turning body
// (wall_u, wall_v: its velocity at every face, core/immersed.hpp; null when every
// body rests) moves its walls: the face takes the body's velocity there, and a ghost
// mirrors about it (2 u_wall - u_fluid).
template <class Real>
struct FillObstacleFaces {
  State<Real> s;
  const Real* wall_u = nullptr;
  const Real* wall_v = nullptr;
  // A block of several ranks: its last faces east (north) lie between its cells and a
  // neighbour's, not on a side of the domain.
  bool inner_east = false, inner_north = false;
  FL_HD void operator()(int i, int j) const {
    const int nx = s.nx(), ny = s.ny();
    // u face (i, j): cells (i, j) and (east, j); boundary faces belong to the sides.
    const int ie = s.nb.east(i);
    if (j <= ny && (i < nx || s.nb.periodic_x || inner_east)) {
      const bool a = s.fluid(i, j), c = s.fluid(ie, j);
      if (!(a && c)) {
        const std::size_t k = s.at(i, j);
        const Real w = wall_u ? wall_u[k] : Real(0);
        Real val = w;
        if (!a && !c) {
          const int jn = s.nb.north(j), js = s.nb.south(j);
          if (s.fluid(i, jn) || s.fluid(ie, jn)) val = 2 * w - s.u[s.at(i, jn)];
          else if (s.fluid(i, js) || s.fluid(ie, js)) val = 2 * w - s.u[s.at(i, js)];
        }
        s.u[k] = val;
      }
    }
    const int jn = s.nb.north(j);
    if (i <= nx && (j < ny || s.nb.periodic_y || inner_north)) {
      const bool a = s.fluid(i, j), c = s.fluid(i, jn);
      if (!(a && c)) {
        const std::size_t k = s.at(i, j);
        const Real w = wall_v ? wall_v[k] : Real(0);
        Real val = w;
        if (!a && !c) {
          const int ie2 = s.nb.east(i), iw = s.nb.west(i);
          if (s.fluid(ie2, j) || s.fluid(ie2, jn)) val = 2 * w - s.v[s.at(ie2, j)];
          else if (s.fluid(iw, j) || s.fluid(iw, jn)) val = 2 * w - s.v[s.at(iw, j)];
        }
        s.v[k] = val;
      }
    }
  }
};

}  // namespace flowlua::projection
