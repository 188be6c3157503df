#include "parallel/decomposition.hpp"

#include <limits>
#include <sstream>

#include "core/error.hpp"

namespace flowlua::ranks {

namespace {
// The first `n % parts` blocks get one cell more.
void split(int n, int parts, int k, int& first, int& count) {
  const int base = n / parts, extra = n % parts;
  count = base + (k < extra ? 1 : 0);
  first = k * base + (k < extra ? k : extra);
}

// Cells on the halos of all blocks together: (px - 1) columns of ny and (py - 1) rows of nx
// (periodic sides add one more of each).
long halo_cells(int nx, int ny, int px, int py, bool per_x, bool per_y) {
  const long cols = px > 1 ? px - 1 + (per_x ? 1 : 0) : 0, rows = py > 1 ? py - 1 + (per_y ? 1 : 0) : 0;
  return cols * ny + rows * nx;
}
}  // namespace

Decomposition decompose(int nx, int ny, int ranks, int px, int py, bool periodic_x, bool periodic_y, int min_cells) {
  Decomposition d;
  d.periodic_x = periodic_x;
  d.periodic_y = periodic_y;
  if (px || py) {
    if (px < 1 || py < 1 || long(px) * py != ranks)
      throw CaseError("decomposition = { px = " + std::to_string(px) + ", py = " + std::to_string(py) +
                      " } makes " + std::to_string(long(px) * py) + " blocks for " + std::to_string(ranks) +
                      " ranks; px * py must equal the number of ranks (or leave decomposition out)");
    d.px = px;
    d.py = py;
  } else {
    long best = std::numeric_limits<long>::max();
    for (int p = 1; p <= ranks; ++p) {
      if (ranks % p) continue;
      const int q = ranks / p;
      if (nx / p < min_cells || ny / q < min_cells) continue;
      const long h = halo_cells(nx, ny, p, q, periodic_x, periodic_y);
      if (h < best) {  // ties keep the smaller px (rows are contiguous)
        best = h;
        d.px = p;
        d.py = q;
      }
    }
    if (best == std::numeric_limits<long>::max())
      throw CaseError("the grid of " + std::to_string(nx) + " x " + std::to_string(ny) + " cells cannot be split into " +
                      std::to_string(ranks) + " blocks of at least " + std::to_string(min_cells) +
                      " cells a side; run on fewer ranks");
  }
  if (nx / d.px < min_cells || ny / d.py < min_cells)
    throw CaseError("decomposition = { px = " + std::to_string(d.px) + ", py = " + std::to_string(d.py) +
                    " } leaves blocks of fewer than " + std::to_string(min_cells) + " cells a side on the " +
                    std::to_string(nx) + " x " + std::to_string(ny) + " grid");
  return d;
}

Subdomain subdomain(const Decomposition& d, int nx, int ny, int rank) {
  Subdomain s;
  s.decomposition = d;
  s.rank = rank;
  s.gnx = nx;
  s.gny = ny;
  s.bx = rank % d.px;
  s.by = rank / d.px;
  split(nx, d.px, s.bx, s.i0, s.nx);
  split(ny, d.py, s.by, s.j0, s.ny);
  auto block_rank = [&](int bx, int by) {
    if (bx < 0 || bx >= d.px) {
      if (!d.periodic_x || d.px == 1) return -1;
      bx = (bx + d.px) % d.px;
    }
    if (by < 0 || by >= d.py) {
      if (!d.periodic_y || d.py == 1) return -1;
      by = (by + d.py) % d.py;
    }
    return bx + by * d.px;
  };
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx || dy) s.neighbour[dy + 1][dx + 1] = block_rank(s.bx + dx, s.by + dy);
  s.halo[0] = s.neighbour[1][0] >= 0;
  s.halo[1] = s.neighbour[1][2] >= 0;
  s.halo[2] = s.neighbour[0][1] >= 0;
  s.halo[3] = s.neighbour[2][1] >= 0;
  return s;
}

Subdomain whole_grid(int nx, int ny) { return subdomain(Decomposition{}, nx, ny, 0); }

std::string Subdomain::describe() const {
  std::ostringstream o;
  o << "block (" << bx << ", " << by << "): cells " << i0 + 1 << ".." << i0 + nx << " x " << j0 + 1 << ".." << j0 + ny;
  return o.str();
}

}  // namespace flowlua::ranks
