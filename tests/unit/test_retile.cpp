// A block's checkpoint state assembled from the pieces of another split
// (parallel/retile.hpp) is what cutting the gathered whole grid gives
// (parallel/gather.hpp: cut_plane, cut_ring and gather_ring's periodic ghosts), for
// every pair of splits of an uneven grid, periodic or not, in both layouts. The pieces'
// halo cells hold garbage: the retiler must take each cell from its owner.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "parallel/gather.hpp"
#include "parallel/retile.hpp"

using namespace flowlua;
using namespace flowlua::ranks;

namespace {

constexpr int kNx = 13, kNy = 9;
constexpr double kGarbage = -999.5;

// A value for every whole-grid cell that tells cells and planes apart.
double value(int plane, int i, int j) { return 1000.0 * plane + 31.0 * i + 0.5 * j + 0.25; }

std::vector<double> whole_planes(int planes) {
  std::vector<double> w;
  for (int p = 0; p < planes; ++p)
    for (int j = 0; j < kNy; ++j)
      for (int i = 0; i < kNx; ++i) w.push_back(value(p, i, j));
  return w;
}

std::vector<double> whole_ring() {
  std::vector<double> w;
  for (int j = 0; j <= kNy + 1; ++j)
    for (int i = 0; i <= kNx + 1; ++i) w.push_back(value(0, i, j));
  return w;
}

// What the gathered whole ring of split d holds: gather_ring's periodic ghosts.
std::vector<double> as_gathered(std::vector<double> w, const Decomposition& d) {
  const int s = kNx + 2;
  auto at = [&](int i, int j) -> double& { return w[std::size_t(i) + std::size_t(j) * s]; };
  if (d.periodic_x && d.px > 1)
    for (int j = 0; j <= kNy + 1; ++j) {
      at(0, j) = at(kNx, j);
      at(kNx + 1, j) = at(1, j);
    }
  if (d.periodic_y && d.py > 1)
    for (int i = 0; i <= kNx + 1; ++i) {
      at(i, 0) = at(i, kNy);
      at(i, kNy + 1) = at(i, 1);
    }
  return w;
}

// Block b's state as its rank saves it, with garbage where it holds a neighbour's cells.
SolverState piece(const Subdomain& b, const std::vector<double>& planes, int nplanes, const std::vector<double>& ring) {
  SolverState st;
  SolverState::Array f{"f", false, cut_planes(planes, nplanes, b), 0, 0, ""};
  f.tile = SolverState::Tile::Planes;
  const int nxa = b.nxa(), nya = b.nya();
  for (int p = 0; p < nplanes; ++p)
    for (int jl = 0; jl < nya; ++jl)
      for (int il = 0; il < nxa; ++il) {
        const bool owned = il >= b.ox() && il < b.ox() + b.nx && jl >= b.oy() && jl < b.oy() + b.ny;
        if (!owned) f.values[std::size_t(p) * nxa * nya + std::size_t(il) + std::size_t(jl) * nxa] = kGarbage;
      }
  SolverState::Array u{"u", false, cut_ring(ring, b), 0, 0, ""};
  u.tile = SolverState::Tile::Ring;
  const RingPart part = ring_part(b);
  for (int jl = 0; jl <= b.ny + 1; ++jl)
    for (int il = 0; il <= b.nx + 1; ++il)
      if (il < part.i_lo || il > part.i_hi || jl < part.j_lo || jl > part.j_hi)
        u.values[std::size_t(il) + std::size_t(jl) * (b.nx + 2)] = kGarbage;
  st.arrays = {f, u, SolverState::Array{"sides", false, {1.0, 2.0, 3.0}, 0, 0, ""}};
  st.scalars = {{"step", 7.0}};
  return st;
}

}  // namespace

TEST(Retile, EveryPairOfSplitsGivesTheCutOfTheWholeGrid) {
  const int nplanes = 3;
  const std::vector<double> planes = whole_planes(nplanes), ring = whole_ring();
  const int splits[][2] = {{1, 1}, {2, 1}, {1, 2}, {3, 1}, {2, 2}, {3, 2}, {1, 3}, {4, 3}};
  int compared = 0;
  for (int periodic = 0; periodic < 4; ++periodic)
    for (const auto& a : splits)
      for (const auto& b : splits) {
        Decomposition from{a[0], a[1], (periodic & 1) != 0, (periodic & 2) != 0};
        Decomposition to{b[0], b[1], from.periodic_x, from.periodic_y};
        const std::vector<double> gathered = as_gathered(ring, from);
        for (int r = 0; r < to.px * to.py; ++r) {
          const Subdomain mine = subdomain(to, kNx, kNy, r);
          Retiler t(mine, from);
          int read = 0;
          for (int q = 0; q < from.px * from.py; ++q) {
            const Subdomain w = subdomain(from, kNx, kNy, q);
            if (!block_needed(w, mine)) continue;
            t.add(w, piece(w, planes, nplanes, ring));
            ++read;
          }
          const SolverState st = t.finish();
          SCOPED_TRACE("from " + std::to_string(a[0]) + "x" + std::to_string(a[1]) + " to " + std::to_string(b[0]) +
                       "x" + std::to_string(b[1]) + " periodic " + std::to_string(periodic) + " rank " +
                       std::to_string(r));
          EXPECT_EQ(st.array("f").values, cut_planes(planes, nplanes, mine));
          EXPECT_EQ(st.array("u").values, cut_ring(gathered, mine));
          EXPECT_EQ(st.array("sides").values, (std::vector<double>{1.0, 2.0, 3.0}));
          EXPECT_EQ(st.scalar("step"), 7.0);
          // Only the pieces it needs: with the same split, its own and its neighbours'.
          if (a[0] == b[0] && a[1] == b[1]) EXPECT_LE(read, std::min(3, from.px) * std::min(3, from.py));
          ++compared;
        }
      }
  EXPECT_GT(compared, 500);
}

TEST(Retile, APieceThatDoesNotFitItsBlockIsRefused) {
  const Decomposition d{2, 1, false, false};
  const Subdomain w0 = subdomain(d, kNx, kNy, 0), w1 = subdomain(d, kNx, kNy, 1);
  SolverState st = piece(w0, whole_planes(1), 1, whole_ring());
  st.arrays[1].values.pop_back();  // the ring array of another block
  Retiler t(whole_grid(kNx, kNy), d);
  EXPECT_THROW(t.add(w0, st), std::runtime_error);
  // A block no piece gave.
  Retiler u(whole_grid(kNx, kNy), d);
  u.add(w1, piece(w1, whole_planes(1), 1, whole_ring()));
  EXPECT_THROW(u.finish(), std::runtime_error);
}
