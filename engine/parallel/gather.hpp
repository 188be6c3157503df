// Whole-grid arrays from the blocks of all ranks and back (parallel/decomposition.hpp),
// on the host: the snapshots, diagnostics, forces and checkpoints of a model split
// between ranks see the whole grid (every rank gets it: Lua runs on every rank), and a
// block's arrays are cut from the case's whole-grid arrays.
//
// Two layouts, as the halo exchange's (parallel/halo.hpp, Ring):
//   Halo    a block's arrays are its owned cells plus a layer where a neighbour is
//           (lbm_swe); whole-grid planes are nx * ny (no ghosts).
//   Ghosts  the NaSt2D layout: every array has a ghost ring, the block's local index
//           (il, jl) is global (i0 + il, j0 + jl), 0 .. n + 1 both; whole-grid arrays
//           are (gnx + 2) x (gny + 2) with the domain's ghost cells.
// Collective calls (every rank calls them with its own block).
#pragma once
#include <cstddef>
#include <vector>

#include "parallel/decomposition.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::ranks {

// k in -n .. 2n - 1 taken into 0 .. n - 1.
inline int wrap_index(int k, int n) { return k < 0 ? k + n : k >= n ? k - n : k; }

// ---- Halo layout (owned cells plus a layer where a neighbour is) ----

// One plane of the whole grid (nx * ny) cut to the block and its halo; across a
// periodic side the halo wraps.
template <class T>
std::vector<T> cut_plane(const std::vector<T>& g, const Subdomain& s) {
  if (g.empty()) return g;
  std::vector<T> out(std::size_t(s.nxa()) * s.nya());
  for (int jl = 0; jl < s.nya(); ++jl)
    for (int il = 0; il < s.nxa(); ++il) {
      const int i = wrap_index(il - s.ox() + s.i0, s.gnx), j = wrap_index(jl - s.oy() + s.j0, s.gny);
      out[std::size_t(il) + std::size_t(jl) * s.nxa()] = g[std::size_t(i) + std::size_t(j) * s.gnx];
    }
  return out;
}

// The blocks of all ranks of the split `s` belongs to, with their place in an
// allgatherv of `cells(block)` values each.
template <class Cells>
std::vector<Subdomain> all_blocks(const Subdomain& s, Cells cells, std::vector<int>& counts, std::vector<int>& displs) {
  const int n = size();
  std::vector<Subdomain> blocks(static_cast<std::size_t>(n));
  counts.assign(std::size_t(n), 0);
  displs.assign(std::size_t(n), 0);
  for (int r = 0, at = 0; r < n; ++r) {
    blocks[r] = subdomain(s.decomposition, s.gnx, s.gny, r);
    counts[r] = int(cells(blocks[r]));
    displs[r] = at;
    at += counts[r];
  }
  return blocks;
}

// The owned cells of `planes` planes of local values (nxa * nya each) from every rank,
// as planes of the whole grid (nx * ny each), on every rank.
template <class T>
std::vector<T> gather_planes(const std::vector<T>& local, int planes, const Subdomain& s) {
  if (s.whole()) return local;
  const long plane_local = long(s.nxa()) * s.nya(), plane = long(s.gnx) * s.gny;
  std::vector<int> counts, displs;
  const std::vector<Subdomain> blocks = all_blocks(s, [](const Subdomain& b) { return long(b.nx) * b.ny; }, counts, displs);
  std::vector<T> all(static_cast<std::size_t>(plane * planes)), mine(static_cast<std::size_t>(s.nx) * s.ny),
      rows(static_cast<std::size_t>(plane));
  for (int p = 0; p < planes; ++p) {
    const T* in = local.data() + p * plane_local;
    for (int j = 0; j < s.ny; ++j)
      for (int i = 0; i < s.nx; ++i)
        mine[std::size_t(i) + std::size_t(j) * s.nx] = in[long(i + s.ox()) + long(j + s.oy()) * s.nxa()];
    allgatherv(mine.data(), int(mine.size()), rows.data(), counts, displs);
    T* out = all.data() + p * plane;
    for (std::size_t r = 0; r < blocks.size(); ++r) {
      const Subdomain& b = blocks[r];
      for (int j = 0; j < b.ny; ++j)
        for (int i = 0; i < b.nx; ++i)
          out[long(b.i0 + i) + long(b.j0 + j) * s.gnx] = rows[std::size_t(displs[r]) + std::size_t(i) + std::size_t(j) * b.nx];
    }
  }
  return all;
}

// The reverse: a block's local planes (with halo) cut from planes of the whole grid.
template <class T>
std::vector<T> cut_planes(const std::vector<T>& global, int planes, const Subdomain& s) {
  if (s.whole()) return global;
  const long plane = long(s.gnx) * s.gny;
  std::vector<T> out;
  out.reserve(std::size_t(planes) * s.nxa() * s.nya());
  for (int p = 0; p < planes; ++p) {
    const std::vector<T> one(global.begin() + p * plane, global.begin() + (p + 1) * plane);
    const std::vector<T> c = cut_plane(one, s);
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

// ---- Ghosts layout (the ghost ring on every side) ----

// The global index of local ring index l (0 .. n + 1) of a block starting at `first`
// (0-based first owned cell) on a grid of `n_global` cells: 0 and n_global + 1 are the
// domain's ghosts, except across a side where a neighbour lies (`halo_lo`, `halo_hi`):
// there the grid is periodic and the index wraps to the cell on the other side.
inline int ring_index(int l, int first, int n_global, bool halo_lo, bool halo_hi) {
  int g = l + first;
  if (g == 0 && halo_lo) g = n_global;
  if (g == n_global + 1 && halo_hi) g = 1;
  return g;
}

// A block's (nx + 2) x (ny + 2) array cut from the whole grid's (gnx + 2) x (gny + 2);
// with hx, hy > 1 the deeper layout (nx + 2 hx) x (ny + 2 hy) of parallel/halo.hpp,
// local ring index l - (hx - 1) at local array index l. Cells beyond the domain's
// ghost cells (deeper than the ghost ring on a side of the domain) are T{}.
template <class T>
std::vector<T> cut_ring(const std::vector<T>& g, const Subdomain& s, int hx = 1, int hy = 1) {
  if (g.empty() || (s.whole() && hx == 1 && hy == 1)) return g;
  const int nxa = s.nx + 2 * hx, nya = s.ny + 2 * hy, gstride = s.gnx + 2;
  // The global index of local index l, or -1 outside the domain's array.
  auto global = [](int l, int first, int n, bool lo, bool hi) {
    int k = l + first;
    if (k <= 0 && lo) k += n;
    if (k >= n + 1 && hi) k -= n;
    return k < 0 || k > n + 1 ? -1 : k;
  };
  std::vector<T> out(std::size_t(nxa) * nya, T{});
  for (int jl = 0; jl < nya; ++jl) {
    const int j = global(jl - (hy - 1), s.j0, s.gny, s.halo[2], s.halo[3]);
    if (j < 0) continue;
    for (int il = 0; il < nxa; ++il) {
      const int i = global(il - (hx - 1), s.i0, s.gnx, s.halo[0], s.halo[1]);
      if (i >= 0) out[std::size_t(il) + std::size_t(jl) * nxa] = g[std::size_t(i) + std::size_t(j) * gstride];
    }
  }
  return out;
}

// The cells of its ring a block gives to the whole grid: its owned cells and the
// domain's ghost cells beside them (not the halo, which another block owns). Local
// indices [i_lo, i_hi] x [j_lo, j_hi]; together the blocks cover the whole grid's
// array once, but for the ghosts of a periodic side split between blocks.
struct RingPart {
  int i_lo, i_hi, j_lo, j_hi;
  long cells() const { return long(i_hi - i_lo + 1) * (j_hi - j_lo + 1); }
};
inline RingPart ring_part(const Subdomain& b) {
  return {b.halo[0] ? 1 : 0, b.halo[1] ? b.nx : b.nx + 1, b.halo[2] ? 1 : 0, b.halo[3] ? b.ny : b.ny + 1};
}

// The whole grid's (gnx + 2) x (gny + 2) array from every block's (nx + 2) x (ny + 2)
// (or its deeper layout, hx, hy: see cut_ring), on every rank. The ghosts of a periodic
// side split between blocks are the copies of the cells across, as one rank's periodic
// fill makes them (x first, then y).
template <class T>
std::vector<T> gather_ring(const std::vector<T>& local, const Subdomain& s, int hx = 1, int hy = 1) {
  if (s.whole() && hx == 1 && hy == 1) return local;
  const int gstride = s.gnx + 2, nxa = s.nx + 2 * hx;
  std::vector<int> counts, displs;
  const std::vector<Subdomain> blocks = all_blocks(s, [](const Subdomain& b) { return ring_part(b).cells(); }, counts, displs);
  const RingPart mp = ring_part(s);
  std::vector<T> mine(static_cast<std::size_t>(mp.cells()));
  std::size_t k = 0;
  for (int j = mp.j_lo; j <= mp.j_hi; ++j)
    for (int i = mp.i_lo; i <= mp.i_hi; ++i) mine[k++] = local[std::size_t(i + hx - 1) + std::size_t(j + hy - 1) * nxa];
  std::vector<T> parts(std::size_t(displs.back()) + std::size_t(counts.back()));
  allgatherv(mine.data(), int(mine.size()), parts.data(), counts, displs);
  std::vector<T> all(std::size_t(gstride) * (s.gny + 2), T{});
  for (std::size_t r = 0; r < blocks.size(); ++r) {
    const Subdomain& b = blocks[r];
    const RingPart p = ring_part(b);
    std::size_t at = std::size_t(displs[r]);
    for (int j = p.j_lo; j <= p.j_hi; ++j)
      for (int i = p.i_lo; i <= p.i_hi; ++i) all[std::size_t(b.i0 + i) + std::size_t(b.j0 + j) * gstride] = parts[at++];
  }
  const Decomposition& d = s.decomposition;
  auto at = [&](int i, int j) -> T& { return all[std::size_t(i) + std::size_t(j) * gstride]; };
  if (d.periodic_x && d.px > 1)
    for (int j = 0; j <= s.gny + 1; ++j) {
      at(0, j) = at(s.gnx, j);
      at(s.gnx + 1, j) = at(1, j);
    }
  if (d.periodic_y && d.py > 1)
    for (int i = 0; i <= s.gnx + 1; ++i) {
      at(i, 0) = at(i, s.gny);
      at(i, s.gny + 1) = at(i, 1);
    }
  return all;
}

// A block of one ghost-layout level: the same split and ranks, its cells at another
// level of a hierarchy (multigrid), nx x ny cells from (i0, j0) on a gnx x gny grid.
inline Subdomain resized(const Subdomain& s, int i0, int j0, int nx, int ny, int gnx, int gny) {
  Subdomain r = s;
  r.i0 = i0;
  r.j0 = j0;
  r.nx = nx;
  r.ny = ny;
  r.gnx = gnx;
  r.gny = gny;
  return r;
}

}  // namespace flowlua::ranks
