#include "models/lbm_swe/decomposed.hpp"

#include "parallel/gather.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::lbm_swe {

ranks::Subdomain block_of_this_rank(const LbmSweConfig& c) {
  const int nx = c.grid.nx, ny = c.grid.ny;
  if (!ranks::several()) return ranks::whole_grid(nx, ny);
  const ranks::Decomposition d =
      ranks::decompose(nx, ny, ranks::size(), c.decomposition_px, c.decomposition_py,
                       c.sides[0].kind == SweSide::Periodic, c.sides[2].kind == SweSide::Periodic);
  return ranks::subdomain(d, nx, ny, ranks::rank());
}

std::vector<double> local_side_values(const std::vector<double>& global, int side, const ranks::Subdomain& s) {
  if (global.empty()) return global;
  const bool along_y = side <= 1;
  const int n = along_y ? s.nya() : s.nxa(), o = along_y ? s.oy() : s.ox(), first = along_y ? s.j0 : s.i0,
            total = along_y ? s.gny : s.gnx;
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) out[std::size_t(k)] = global[std::size_t(ranks::wrap_index(k - o + first, total))];
  return out;
}

LbmSweConfig local_case(const LbmSweConfig& g, const ranks::Subdomain& s) {
  if (s.whole()) return g;
  LbmSweConfig c = g;
  c.grid = Grid::make(s.nxa(), s.nya(), g.grid.dx * s.nxa(), g.grid.dy * s.nya());
  c.bed = ranks::cut_plane(g.bed, s);
  c.h0 = ranks::cut_plane(g.h0, s);
  c.u0 = ranks::cut_plane(g.u0, s);
  c.v0 = ranks::cut_plane(g.v0, s);
  c.solid = ranks::cut_plane(g.solid, s);
  for (int k = 0; k < 4; ++k) {
    if (s.halo[k]) {
      c.sides[k] = SweSideCondition{};  // a wall the step never reaches: the halo lies there
      continue;
    }
    c.sides[k].values = local_side_values(g.sides[k].values, k, s);
  }
  return c;
}

}  // namespace flowlua::lbm_swe
