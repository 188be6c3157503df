// What a pressure solver needs to know when it is built, before any solve: the grid,
// the periodic wrap and a host copy of the cell flags. Multigrid builds its coarse
// levels from the flags; the FFT solver checks from them that the domain is an
// obstacle-free rectangle with transformable sides. The solve itself gets the same
// flags in backend memory through PoissonView.
#pragma once
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/flags.hpp"
#include "core/grid.hpp"
#include "parallel/decomposition.hpp"

namespace flowlua {

namespace poisson_detail {
inline long fluid_cells(const Grid& grid, const std::vector<CellFlags>& flags) {
  long n = 0;
  for (int j = 1; j <= grid.ny; ++j)
    for (int i = 1; i <= grid.nx; ++i) n += is_fluid(flags[grid.at(i, j)]);
  return n;
}
inline bool singular(const Grid& grid, const Neighbours& nb, const std::vector<CellFlags>& flags) {
  for (int j = 1; j <= grid.ny; ++j)
    for (int i = 1; i <= grid.nx; ++i) {
      CellFlags f = flags[grid.at(i, j)];
      if (!is_fluid(f)) continue;
      const bool outside[4] = {nb.east(i) > grid.nx, nb.west(i) < 1, nb.north(j) > grid.ny, nb.south(j) < 1};
      for (unsigned d = 0; d < 4; ++d) {
        const unsigned k = coupling(f, flag::Dir(d));
        if (k == flag::Dirichlet || (k == flag::Coupled && outside[d])) return false;
      }
    }
  return true;
}
}  // namespace poisson_detail

// A problem split between MPI ranks (parallel/decomposition.hpp; linalg/block_halo.hpp):
// this rank's block, and the whole problem, which every rank holds on the host (the
// multigrid levels are planned on it, and its coarse levels are solved whole).
struct PoissonBlocks {
  ranks::Subdomain block;
  Grid grid;  // the whole grid
  Neighbours nb;
  std::vector<CellFlags> flags;
};

struct PoissonProblem {
  Grid grid;  // on several ranks: the block's (its cells, the ghost ring around them)
  Neighbours nb;
  std::vector<CellFlags> flags;  // grid.size() entries, ghosts included
  // Null on one rank. On several, the grid, neighbours and flags above are the block's
  // (the ring's cells towards a neighbour hold its flags; nb wraps only across a
  // periodic side that no block boundary cuts), and the counts below are the whole
  // problem's.
  std::shared_ptr<const PoissonBlocks> blocks = nullptr;

  long fluid_cells() const {
    return blocks ? poisson_detail::fluid_cells(blocks->grid, blocks->flags) : poisson_detail::fluid_cells(grid, flags);
  }
  bool has_obstacles() const { return fluid_cells() < (blocks ? blocks->grid : grid).cells(); }
  // No Dirichlet face anywhere: p is fixed only up to a constant. A cell coupled
  // to a ghost across a side that is not periodic also fixes it: the ghost holds a
  // known value (the psi_omega model's boundary nodes).
  bool singular() const {
    return blocks ? poisson_detail::singular(blocks->grid, blocks->nb, blocks->flags)
                  : poisson_detail::singular(grid, nb, flags);
  }
};

// The same in 3D (Grid3 layout, six sides).
struct PoissonProblem3 {
  Grid3 grid;
  Neighbours3 nb;
  std::vector<CellFlags> flags;  // grid.size() entries, ghosts included

  long fluid_cells() const {
    long n = 0;
    for (int k = 1; k <= grid.nz; ++k)
      for (int j = 1; j <= grid.ny; ++j)
        for (int i = 1; i <= grid.nx; ++i) n += is_fluid(flags[grid.at(i, j, k)]);
    return n;
  }
  bool has_obstacles() const { return fluid_cells() < grid.cells(); }
  bool singular() const {
    for (int k = 1; k <= grid.nz; ++k)
      for (int j = 1; j <= grid.ny; ++j)
        for (int i = 1; i <= grid.nx; ++i) {
          CellFlags f = flags[grid.at(i, j, k)];
          if (!is_fluid(f)) continue;
          const bool outside[6] = {nb.east(i) > grid.nx,  nb.west(i) < 1, nb.north(j) > grid.ny,
                                   nb.south(j) < 1, nb.front(k) > grid.nz, nb.back(k) < 1};
          for (unsigned d = 0; d < 6; ++d) {
            const unsigned c = coupling(f, flag::Dir(d));
            if (c == flag::Dirichlet || (c == flag::Coupled && outside[d])) return false;
          }
        }
    return true;
  }
};

template <int D>
using PoissonProblemOf = std::conditional_t<D == 2, PoissonProblem, PoissonProblem3>;

// How the pressure couples across one side of the rectangle, if it is the same all
// along the side.
enum class SideCoupling { Periodic, Neumann, Dirichlet, Mixed };

inline const char* side_coupling_name(SideCoupling s) {
  switch (s) {
    case SideCoupling::Periodic: return "periodic";
    case SideCoupling::Neumann: return "wall (dp/dn = 0)";
    case SideCoupling::Dirichlet: return "outflow (p = 0)";
    case SideCoupling::Mixed: return "mixed";
  }
  return "?";
}

// Side order as in core/boundary.hpp: left, right, bottom, top. With skip_solid,
// obstacle cells along the side are passed over; otherwise they make it Mixed.
inline SideCoupling side_coupling(const PoissonProblem& pr, int side, bool skip_solid = false) {
  const Grid& g = pr.grid;
  const bool x_side = side < 2;
  if (x_side ? pr.nb.periodic_x : pr.nb.periodic_y) return SideCoupling::Periodic;
  const flag::Dir dir = side == 0 ? flag::West : side == 1 ? flag::East : side == 2 ? flag::South : flag::North;
  const int n = x_side ? g.ny : g.nx;
  unsigned seen = 0;  // bit per coupling kind
  for (int k = 1; k <= n; ++k) {
    int i = x_side ? (side == 0 ? 1 : g.nx) : k;
    int j = x_side ? k : (side == 2 ? 1 : g.ny);
    CellFlags f = pr.flags[g.at(i, j)];
    if (!is_fluid(f)) {
      if (skip_solid) continue;
      return SideCoupling::Mixed;
    }
    seen |= 1u << coupling(f, dir);
  }
  if (seen == 0 || seen == (1u << flag::Neumann)) return SideCoupling::Neumann;
  if (seen == (1u << flag::Dirichlet)) return SideCoupling::Dirichlet;
  return SideCoupling::Mixed;
}

}  // namespace flowlua

namespace flowlua {

// 3D: sides in the order of Boundaries3 (left, right, bottom, top, back, front).
inline SideCoupling side_coupling(const PoissonProblem3& pr, int side, bool skip_solid = false) {
  const Grid3& g = pr.grid;
  const int axis = side / 2;
  const bool periodic = axis == 0 ? pr.nb.periodic_x : axis == 1 ? pr.nb.periodic_y : pr.nb.periodic_z;
  if (periodic) return SideCoupling::Periodic;
  static const flag::Dir dirs[6] = {flag::West, flag::East, flag::South, flag::North, flag::Back, flag::Front};
  const flag::Dir dir = dirs[side];
  const bool high = side % 2 == 1;
  const int n[3] = {g.nx, g.ny, g.nz};
  const int na = n[(axis + 1) % 3], nb = n[(axis + 2) % 3];
  unsigned seen = 0;
  for (int b = 1; b <= nb; ++b)
    for (int a = 1; a <= na; ++a) {
      int idx[3];
      idx[axis] = high ? n[axis] : 1;
      idx[(axis + 1) % 3] = a;
      idx[(axis + 2) % 3] = b;
      CellFlags f = pr.flags[g.at(idx[0], idx[1], idx[2])];
      if (!is_fluid(f)) {
        if (skip_solid) continue;
        return SideCoupling::Mixed;
      }
      seen |= 1u << coupling(f, dir);
    }
  if (seen == 0 || seen == (1u << flag::Neumann)) return SideCoupling::Neumann;
  if (seen == (1u << flag::Dirichlet)) return SideCoupling::Dirichlet;
  return SideCoupling::Mixed;
}

}  // namespace flowlua
