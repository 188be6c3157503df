// How a 2D grid of nx x ny cells is split between the ranks: px x py blocks of
// nearly equal size, rank r at block (r % px, r / px). A block's arrays carry a
// ghost layer one cell wide (the halo) on each side where a neighbouring block lies;
// on the sides of the domain they keep the model's own boundary treatment.
#pragma once
#include <string>

namespace flowlua::ranks {

struct Decomposition {
  int px = 1, py = 1;
  bool periodic_x = false, periodic_y = false;  // the last block's neighbour is the first
};

// px x py for `ranks` ranks: the given split (px * py must equal ranks), or, with
// px = py = 0, the one whose blocks have the shortest halo (ties go to fewer blocks
// across x: whole rows are contiguous in memory). Throws CaseError when the grid
// cannot be split so (fewer than `min_cells` cells a block side).
Decomposition decompose(int nx, int ny, int ranks, int px, int py, bool periodic_x, bool periodic_y,
                        int min_cells = 4);

struct Subdomain {
  Decomposition decomposition;  // the split this block belongs to
  int rank = 0;
  int bx = 0, by = 0;   // the block's place in the px x py grid of blocks
  int i0 = 0, j0 = 0;   // the first owned cell (0-based global indices)
  int nx = 0, ny = 0;   // owned cells
  int gnx = 0, gny = 0; // the whole grid
  // A halo layer on each side (left, right, bottom, top): a neighbouring block there.
  bool halo[4] = {false, false, false, false};
  // The rank of the block at (bx + dx, by + dy), dx, dy in -1..1, or -1: none.
  int neighbour[3][3] = {{-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}};

  // The local arrays: owned cells plus the halo layers.
  int ox() const { return halo[0] ? 1 : 0; }  // local index of the first owned cell
  int oy() const { return halo[2] ? 1 : 0; }
  int nxa() const { return nx + halo[0] + halo[1]; }
  int nya() const { return ny + halo[2] + halo[3]; }
  bool whole() const { return nx == gnx && ny == gny; }
  std::string describe() const;
};

Subdomain subdomain(const Decomposition& d, int nx, int ny, int rank);
// The whole grid as one block (one rank).
Subdomain whole_grid(int nx, int ny);

}  // namespace flowlua::ranks
