// The split of a grid between MPI ranks (parallel/decomposition.hpp) and the halo
// strips (parallel/halo.hpp), on one process: every cell owned by exactly one block,
// neighbours and halos consistent, periodic wrap, bad splits refused. The exchange
// itself runs under mpirun (tests/mpi).
#include <gtest/gtest.h>

#include <vector>

#include "core/error.hpp"
#include "parallel/decomposition.hpp"

using namespace flowlua;
using namespace flowlua::ranks;

TEST(Decomposition, AutomaticSplitHasTheShortestBoundaries) {
  // 4 ranks on a wide grid: 4 x 1 (3 cuts of 64 cells) beats 2 x 2 (256 + 64) and 1 x 4 (3 x 256).
  Decomposition d = decompose(256, 64, 4, 0, 0, false, false);
  EXPECT_EQ(d.px, 4);
  EXPECT_EQ(d.py, 1);
  // A square grid: 2 x 2 (2 cuts of 128) beats 4 x 1 (3 cuts of 128).
  d = decompose(128, 128, 4, 0, 0, false, false);
  EXPECT_EQ(d.px, 2);
  EXPECT_EQ(d.py, 2);
  // Ties go to rows (px = 1): 2 ranks on a square grid.
  d = decompose(64, 64, 2, 0, 0, false, false);
  EXPECT_EQ(d.px, 1);
  EXPECT_EQ(d.py, 2);
  // A periodic x side adds a cut across x: 2 ranks on 48 x 20 periodic in x cut 2 x 20 < 48.
  d = decompose(48, 20, 2, 0, 0, true, false);
  EXPECT_EQ(d.px, 2);
}

TEST(Decomposition, GivenSplitMustMatchTheRanks) {
  EXPECT_NO_THROW(decompose(64, 64, 4, 4, 1, false, false));
  EXPECT_THROW(decompose(64, 64, 4, 3, 1, false, false), CaseError);
  EXPECT_THROW(decompose(64, 64, 4, 0, 2, false, false), CaseError);
  EXPECT_THROW(decompose(8, 64, 4, 4, 1, false, false), CaseError);  // blocks of 2 cells across
  EXPECT_THROW(decompose(6, 6, 16, 0, 0, false, false), CaseError);  // no split leaves 4 cells a side
}

TEST(Decomposition, EveryCellHasOneOwnerAndNeighboursAgree) {
  for (bool periodic : {false, true}) {
    const int nx = 37, ny = 23;
    const Decomposition d = decompose(nx, ny, 6, 3, 2, periodic, periodic);
    std::vector<int> owner(nx * ny, -1);
    for (int r = 0; r < 6; ++r) {
      const Subdomain s = subdomain(d, nx, ny, r);
      for (int j = s.j0; j < s.j0 + s.ny; ++j)
        for (int i = s.i0; i < s.i0 + s.nx; ++i) {
          EXPECT_EQ(owner[i + j * nx], -1) << "cell " << i << ", " << j << " owned twice";
          owner[i + j * nx] = r;
        }
      // The halo cell beside each side belongs to the neighbour named there.
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!dx && !dy) continue;
          const int i = dx < 0 ? s.i0 - 1 : dx > 0 ? s.i0 + s.nx : s.i0;
          const int j = dy < 0 ? s.j0 - 1 : dy > 0 ? s.j0 + s.ny : s.j0;
          const bool inside = i >= 0 && i < nx && j >= 0 && j < ny;
          const int n = s.neighbour[dy + 1][dx + 1];
          if (!inside && !periodic) {
            EXPECT_EQ(n, -1);
            continue;
          }
          const Subdomain o = subdomain(d, nx, ny, n);
          const int wi = (i + nx) % nx, wj = (j + ny) % ny;
          EXPECT_TRUE(wi >= o.i0 && wi < o.i0 + o.nx && wj >= o.j0 && wj < o.j0 + o.ny)
              << "rank " << r << " direction " << dx << ", " << dy;
        }
      EXPECT_EQ(s.halo[0], s.neighbour[1][0] >= 0);
      EXPECT_EQ(s.halo[3], s.neighbour[2][1] >= 0);
      EXPECT_EQ(s.nxa(), s.nx + s.halo[0] + s.halo[1]);
    }
    for (int k = 0; k < nx * ny; ++k) EXPECT_GE(owner[k], 0);
  }
  // Blocks differ by at most one cell: 37 = 13 + 12 + 12.
  const Decomposition d = decompose(37, 23, 6, 3, 2, false, false);
  EXPECT_EQ(subdomain(d, 37, 23, 0).nx, 13);
  EXPECT_EQ(subdomain(d, 37, 23, 1).nx, 12);
  EXPECT_EQ(subdomain(d, 37, 23, 1).i0, 13);
}

TEST(Decomposition, OneRankIsTheWholeGridWithoutHalo) {
  const Subdomain s = whole_grid(40, 30);
  EXPECT_TRUE(s.whole());
  EXPECT_EQ(s.nxa(), 40);
  EXPECT_EQ(s.nya(), 30);
  for (bool h : s.halo) EXPECT_FALSE(h);
}
