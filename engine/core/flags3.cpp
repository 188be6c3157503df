// build_flags3: the rules of build_flags (flags.cpp) in three dimensions.
#include "core/error.hpp"
#include "core/flags.hpp"

namespace flowlua {

FlagReport build_flags3(const Grid3& g, const Boundaries3& sides, std::vector<std::uint8_t> solid) {
  const int nx = g.nx, ny = g.ny, nz = g.nz;
  const bool px = is_periodic_x(sides), py = is_periodic_y(sides), pz = is_periodic_z(sides);
  const std::size_t n = std::size_t(nx) * ny * nz;
  if (solid.empty()) solid.assign(n, 0);
  if (solid.size() != n) throw CaseError("build_flags3: the solid mask has the wrong size");
  auto at = [&](int i, int j, int k) -> std::uint8_t& {
    return solid[std::size_t(i - 1) + std::size_t(nx) * (std::size_t(j - 1) + std::size_t(ny) * (k - 1))];
  };
  const Neighbours3 nb{nx, ny, nz, px, py, pz};
  // Outside the domain counts as "not fluid" except across a periodic side.
  auto wrap = [](int& a, int na, bool periodic) {
    if (a >= 1 && a <= na) return true;
    if (!periodic) return false;
    a = a < 1 ? na : 1;
    return true;
  };
  auto solid_at = [&](int i, int j, int k) {
    if (!wrap(i, nx, px) || !wrap(j, ny, py) || !wrap(k, nz, pz)) return true;
    return at(i, j, k) != 0;
  };

  FlagReport rep;
  for (bool changed = true; changed;) {
    changed = false;
    for (int k = 1; k <= nz; ++k)
      for (int j = 1; j <= ny; ++j)
        for (int i = 1; i <= nx; ++i) {
          if (at(i, j, k)) {
            const bool ew = !solid_at(i - 1, j, k) && !solid_at(i + 1, j, k);
            const bool ns = !solid_at(i, j - 1, k) && !solid_at(i, j + 1, k);
            const bool fb = !solid_at(i, j, k - 1) && !solid_at(i, j, k + 1);
            if (ew || ns || fb) { at(i, j, k) = 0; ++rep.cells_opened; changed = true; }
          } else {
            const bool alone = solid_at(i - 1, j, k) && solid_at(i + 1, j, k) && solid_at(i, j - 1, k) &&
                               solid_at(i, j + 1, k) && solid_at(i, j, k - 1) && solid_at(i, j, k + 1);
            if (alone) { at(i, j, k) = 1; ++rep.cells_closed; changed = true; }
          }
        }
  }

  rep.flags.assign(g.size(), 0);
  auto side_coupling = [&](Side s) -> unsigned {
    switch (sides[int(s)].kind) {
      case BoundaryKind::Outflow: return flag::Dirichlet;
      case BoundaryKind::Periodic: return flag::Coupled;
      default: return flag::Neumann;  // walls, inflow, slip: dp/dn = 0 (NaSt2D)
    }
  };
  for (int k = 1; k <= nz; ++k)
    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) {
        if (at(i, j, k)) continue;
        CellFlags f = flag::kFluid;
        auto neighbour = [&](flag::Dir d, int ii, int jj, int kk, bool outside, Side s) {
          const unsigned c = outside ? side_coupling(s) : at(ii, jj, kk) ? flag::Neumann : flag::Coupled;
          f |= CellFlags(c << flag::shift(d));
        };
        neighbour(flag::East, nb.east(i), j, k, nb.east(i) > nx, Side::Right);
        neighbour(flag::West, nb.west(i), j, k, nb.west(i) < 1, Side::Left);
        neighbour(flag::North, i, nb.north(j), k, nb.north(j) > ny, Side::Top);
        neighbour(flag::South, i, nb.south(j), k, nb.south(j) < 1, Side::Bottom);
        neighbour(flag::Front, i, j, nb.front(k), nb.front(k) > nz, Side::Front);
        neighbour(flag::Back, i, j, nb.back(k), nb.back(k) < 1, Side::Back);
        rep.flags[g.at(i, j, k)] = f;
        ++rep.fluid_cells;
      }
  if (rep.fluid_cells == 0) throw CaseError("the obstacles leave no fluid cell in the domain");
  return rep;
}

}  // namespace flowlua
