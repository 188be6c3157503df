#include "core/flags.hpp"

#include "core/error.hpp"

namespace flowlua {

FlagReport build_flags(const Grid& g, const Boundaries& sides, std::vector<std::uint8_t> solid) {
  const int nx = g.nx, ny = g.ny;
  const bool px = is_periodic_x(sides), py = is_periodic_y(sides);
  if (solid.empty()) solid.assign(std::size_t(nx) * ny, 0);
  auto at = [&](int i, int j) -> std::uint8_t& { return solid[std::size_t(i - 1) + std::size_t(j - 1) * nx]; };
  Neighbours nb{nx, ny, px, py};
  // Outside the domain counts as "not fluid" except across a periodic side.
  auto solid_at = [&](int i, int j) {
    if (i < 1 || i > nx) {
      if (!px) return true;
      i = i < 1 ? nx : 1;
    }
    if (j < 1 || j > ny) {
      if (!py) return true;
      j = j < 1 ? ny : 1;
    }
    return at(i, j) != 0;
  };

  FlagReport rep;
  for (bool changed = true; changed;) {
    changed = false;
    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) {
        if (at(i, j)) {
          bool ew = !solid_at(i - 1, j) && !solid_at(i + 1, j);
          bool ns = !solid_at(i, j - 1) && !solid_at(i, j + 1);
          if (ew || ns) { at(i, j) = 0; ++rep.cells_opened; changed = true; }
        } else {
          bool alone = solid_at(i - 1, j) && solid_at(i + 1, j) && solid_at(i, j - 1) && solid_at(i, j + 1);
          if (alone) { at(i, j) = 1; ++rep.cells_closed; changed = true; }
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
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      if (at(i, j)) continue;
      CellFlags f = flag::kFluid;
      auto set = [&](flag::Dir d, unsigned c) { f |= CellFlags(c << flag::shift(d)); };
      auto neighbour = [&](flag::Dir d, int ii, int jj, bool outside, Side s) {
        if (outside) set(d, side_coupling(s));
        else set(d, at(ii, jj) ? flag::Neumann : flag::Coupled);
      };
      neighbour(flag::East, nb.east(i), j, nb.east(i) > nx, Side::Right);
      neighbour(flag::West, nb.west(i), j, nb.west(i) < 1, Side::Left);
      neighbour(flag::North, i, nb.north(j), nb.north(j) > ny, Side::Top);
      neighbour(flag::South, i, nb.south(j), nb.south(j) < 1, Side::Bottom);
      rep.flags[g.at(i, j)] = f;
      ++rep.fluid_cells;
    }
  if (rep.fluid_cells == 0) throw CaseError("the obstacles leave no fluid cell in the domain");
  return rep;
}

bool open_domain_flags(const Grid& g, const FlagReport& rep, OpenDomainFlags& out) {
  if (rep.fluid_cells != g.cells() || rep.flags.size() != g.size()) return false;
  // Each side's coupling as the corner cell on it sees it; the check below makes
  // sure every cell agrees.
  auto bits = [&](int i, int j, flag::Dir d) {
    return CellFlags(coupling(rep.flags[g.at(i, j)], d) << flag::shift(d));
  };
  OpenDomainFlags o{g.nx, g.ny, bits(g.nx, 1, flag::East), bits(1, 1, flag::West), bits(1, g.ny, flag::North),
                    bits(1, 1, flag::South)};
  for (int j = 0; j <= g.ny + 1; ++j)
    for (int i = 0; i <= g.nx + 1; ++i)
      if (o.at(i, j) != rep.flags[g.at(i, j)]) return false;
  out = o;
  return true;
}

}  // namespace flowlua
