#include "parallel/retile.hpp"

#include <stdexcept>
#include <string>

#include "parallel/gather.hpp"

namespace flowlua::ranks {

namespace {

// Whether [a0, a1] meets [b0, b1] on an axis of n cells (periodic: shifted by n too).
bool meets(int a0, int a1, int b0, int b1, int n, bool periodic) {
  for (int shift : {0, -n, n}) {
    if (shift && !periodic) continue;
    if (a0 <= b1 + shift && b0 + shift <= a1) return true;
  }
  return false;
}

using Tile = SolverState::Tile;

std::size_t local_cells(const Subdomain& b, Tile t) {
  return t == Tile::Planes ? std::size_t(b.nxa()) * b.nya() : std::size_t(b.nx + 2) * (b.ny + 2);
}

// The whole grid's index that local cell (il, jl) of block `to` holds, in the layout
// of tile t: cells 0 .. n - 1 for Planes (cut_plane), ring indices 0 .. n + 1 for Ring
// (cut_ring), then the ghost of a periodic side split in `from` taken to the cell whose
// copy it is (gather_ring: x first, then y).
void whole_index(const Subdomain& to, const Decomposition& from, Tile t, int il, int jl, int& gi, int& gj) {
  if (t == Tile::Planes) {
    gi = wrap_index(il - to.ox() + to.i0, to.gnx);
    gj = wrap_index(jl - to.oy() + to.j0, to.gny);
    return;
  }
  gi = ring_index(il, to.i0, to.gnx, to.halo[0], to.halo[1]);
  gj = ring_index(jl, to.j0, to.gny, to.halo[2], to.halo[3]);
  if (from.periodic_x && from.px > 1) gi = gi == 0 ? to.gnx : gi == to.gnx + 1 ? 1 : gi;
  if (from.periodic_y && from.py > 1) gj = gj == 0 ? to.gny : gj == to.gny + 1 ? 1 : gj;
}

// The local index in block `b` of whole index (gi, gj) when b owns it (its tile), or -1.
long owned_index(const Subdomain& b, Tile t, int gi, int gj) {
  if (t == Tile::Planes) {
    if (gi < b.i0 || gi >= b.i0 + b.nx || gj < b.j0 || gj >= b.j0 + b.ny) return -1;
    return long(gi - b.i0 + b.ox()) + long(gj - b.j0 + b.oy()) * b.nxa();
  }
  const RingPart p = ring_part(b);
  const int il = gi - b.i0, jl = gj - b.j0;
  if (il < p.i_lo || il > p.i_hi || jl < p.j_lo || jl > p.j_hi) return -1;
  return long(il) + long(jl) * (b.nx + 2);
}

}  // namespace

bool block_needed(const Subdomain& piece, const Subdomain& to) {
  const Decomposition& d = to.decomposition;
  return meets(piece.i0 - 1, piece.i0 + piece.nx, to.i0 - 1, to.i0 + to.nx, to.gnx, d.periodic_x) &&
         meets(piece.j0 - 1, piece.j0 + piece.ny, to.j0 - 1, to.j0 + to.ny, to.gny, d.periodic_y);
}

Retiler::Retiler(const Subdomain& to, const Decomposition& from) : to_(to), from_(from) {}

void Retiler::add(const Subdomain& piece, const SolverState& st) {
  const std::string who = "the piece of rank " + std::to_string(piece.rank);
  if (!started_) {
    started_ = true;
    out_.scalars = st.scalars;
    for (const auto& a : st.arrays) {
      SolverState::Array o = a;
      if (a.tile != Tile::None) {
        // Planes of the piece's local cells (the file's rows x cols only help its readers).
        const std::size_t from_cells = local_cells(piece, a.tile);
        const std::size_t planes = a.values.size() / from_cells;
        if (planes == 0 || planes * from_cells != a.values.size() || (a.tile == Tile::Ring && planes != 1))
          throw std::runtime_error(who + ": array '" + a.name + "' has " + std::to_string(a.values.size()) +
                                   " values, not planes of its block's " + std::to_string(from_cells) + " cells");
        const std::size_t cells = local_cells(to_, a.tile);
        o.values.assign(planes * cells, 0.0);
        o.rows = planes;  // internal: planes of `to`'s cells
        o.cols = cells;
      }
      out_.arrays.push_back(std::move(o));
    }
    planes_done_.assign(local_cells(to_, Tile::Planes), 0);
    ring_done_.assign(local_cells(to_, Tile::Ring), 0);
  }
  for (SolverState::Array& o : out_.arrays) {
    if (o.tile == Tile::None) continue;
    const SolverState::Array* in = nullptr;
    for (const auto& a : st.arrays)
      if (a.name == o.name) in = &a;
    if (!in || in->tile != o.tile)
      throw std::runtime_error(who + " has no block array '" + o.name + "' like the others'");
    const std::size_t cells = local_cells(piece, o.tile), planes = o.rows;
    if (in->values.size() != planes * cells)
      throw std::runtime_error(who + ": array '" + o.name + "' has " + std::to_string(in->values.size()) +
                               " values where its block has " + std::to_string(planes * cells));
  }
  for (Tile t : {Tile::Planes, Tile::Ring}) {
    std::vector<char>& done = t == Tile::Planes ? planes_done_ : ring_done_;
    const int nxa = t == Tile::Planes ? to_.nxa() : to_.nx + 2, nya = t == Tile::Planes ? to_.nya() : to_.ny + 2;
    const std::size_t from_cells = local_cells(piece, t), to_cells = local_cells(to_, t);
    for (int jl = 0; jl < nya; ++jl)
      for (int il = 0; il < nxa; ++il) {
        int gi = 0, gj = 0;
        whole_index(to_, from_, t, il, jl, gi, gj);
        const long k = owned_index(piece, t, gi, gj);
        if (k < 0) continue;
        const std::size_t me = std::size_t(il) + std::size_t(jl) * nxa;
        done[me] = 1;
        for (SolverState::Array& o : out_.arrays) {
          if (o.tile != t) continue;
          const SolverState::Array& in = st.array(o.name);
          for (std::size_t p = 0; p < o.rows; ++p) o.values[p * to_cells + me] = in.values[p * from_cells + std::size_t(k)];
        }
      }
  }
}

SolverState Retiler::finish() {
  if (!started_) throw std::runtime_error("no piece holds this rank's block");
  for (Tile t : {Tile::Planes, Tile::Ring}) {
    bool used = false;
    for (const auto& a : out_.arrays) used = used || a.tile == t;
    if (!used) continue;
    const std::vector<char>& done = t == Tile::Planes ? planes_done_ : ring_done_;
    const int nxa = t == Tile::Planes ? to_.nxa() : to_.nx + 2;
    for (std::size_t k = 0; k < done.size(); ++k)
      if (!done[k])
        throw std::runtime_error("no piece holds local cell (" + std::to_string(k % std::size_t(nxa)) + ", " +
                                 std::to_string(k / std::size_t(nxa)) + ") of " + to_.describe());
  }
  return std::move(out_);
}

}  // namespace flowlua::ranks
