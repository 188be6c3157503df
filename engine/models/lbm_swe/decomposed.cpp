#include "models/lbm_swe/decomposed.hpp"

#include "models/lbm_swe/storage.hpp"
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

namespace {
// Local cell (il, jl) of the block is global cell (il - ox + i0, jl - oy + j0); with a
// periodic halo the global index wraps.
int wrap(int k, int n) { return k < 0 ? k + n : k >= n ? k - n : k; }

template <class T>
std::vector<T> cut(const std::vector<T>& g, const ranks::Subdomain& s) {
  if (g.empty()) return g;
  std::vector<T> out(std::size_t(s.nxa()) * s.nya());
  for (int jl = 0; jl < s.nya(); ++jl)
    for (int il = 0; il < s.nxa(); ++il) {
      const int i = wrap(il - s.ox() + s.i0, s.gnx), j = wrap(jl - s.oy() + s.j0, s.gny);
      out[std::size_t(il) + std::size_t(jl) * s.nxa()] = g[std::size_t(i) + std::size_t(j) * s.gnx];
    }
  return out;
}
}  // namespace

std::vector<double> local_side_values(const std::vector<double>& global, int side, const ranks::Subdomain& s) {
  if (global.empty()) return global;
  const bool along_y = side <= 1;
  const int n = along_y ? s.nya() : s.nxa(), o = along_y ? s.oy() : s.ox(), first = along_y ? s.j0 : s.i0,
            total = along_y ? s.gny : s.gnx;
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) out[std::size_t(k)] = global[std::size_t(wrap(k - o + first, total))];
  return out;
}

LbmSweConfig local_case(const LbmSweConfig& g, const ranks::Subdomain& s) {
  if (s.whole()) return g;
  LbmSweConfig c = g;
  c.grid = Grid::make(s.nxa(), s.nya(), g.grid.dx * s.nxa(), g.grid.dy * s.nya());
  c.bed = cut(g.bed, s);
  c.h0 = cut(g.h0, s);
  c.u0 = cut(g.u0, s);
  c.v0 = cut(g.v0, s);
  c.solid = cut(g.solid, s);
  for (int k = 0; k < 4; ++k) {
    if (s.halo[k]) {
      c.sides[k] = SweSideCondition{};  // a wall the step never reaches: the halo lies there
      continue;
    }
    c.sides[k].values = local_side_values(g.sides[k].values, k, s);
  }
  return c;
}

template <class T>
std::vector<T> gather_planes(const std::vector<T>& local, int planes, const ranks::Subdomain& s) {
  if (s.whole()) return local;
  const long plane_local = long(s.nxa()) * s.nya(), plane = long(s.gnx) * s.gny;
  const int n = ranks::size();
  const auto ranks_n = static_cast<std::size_t>(n);
  std::vector<ranks::Subdomain> blocks(ranks_n);
  std::vector<int> counts(ranks_n), displs(ranks_n);
  for (int r = 0, at = 0; r < n; ++r) {
    blocks[r] = ranks::subdomain(s.decomposition, s.gnx, s.gny, r);
    counts[r] = blocks[r].nx * blocks[r].ny;
    displs[r] = at;
    at += counts[r];
  }
  std::vector<T> all(static_cast<std::size_t>(plane * planes)), mine(static_cast<std::size_t>(s.nx) * s.ny),
      rows(static_cast<std::size_t>(plane));
  for (int p = 0; p < planes; ++p) {
    const T* in = local.data() + p * plane_local;
    for (int j = 0; j < s.ny; ++j)
      for (int i = 0; i < s.nx; ++i)
        mine[std::size_t(i) + std::size_t(j) * s.nx] = in[long(i + s.ox()) + long(j + s.oy()) * s.nxa()];
    ranks::allgatherv(mine.data(), int(mine.size()), rows.data(), counts, displs);
    T* out = all.data() + p * plane;
    for (int r = 0; r < n; ++r) {
      const ranks::Subdomain& b = blocks[r];
      for (int j = 0; j < b.ny; ++j)
        for (int i = 0; i < b.nx; ++i)
          out[long(b.i0 + i) + long(b.j0 + j) * s.gnx] = rows[std::size_t(displs[r]) + std::size_t(i) + std::size_t(j) * b.nx];
    }
  }
  return all;
}

template <class T>
std::vector<T> cut_planes(const std::vector<T>& global, int planes, const ranks::Subdomain& s) {
  if (s.whole()) return global;
  const long plane = long(s.gnx) * s.gny;
  std::vector<T> out;
  out.reserve(std::size_t(planes) * s.nxa() * s.nya());
  for (int p = 0; p < planes; ++p) {
    const std::vector<T> one(global.begin() + p * plane, global.begin() + (p + 1) * plane);
    const std::vector<T> c = cut(one, s);
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

template std::vector<float> gather_planes(const std::vector<float>&, int, const ranks::Subdomain&);
template std::vector<double> gather_planes(const std::vector<double>&, int, const ranks::Subdomain&);
template std::vector<Half> gather_planes(const std::vector<Half>&, int, const ranks::Subdomain&);
template std::vector<float> cut_planes(const std::vector<float>&, int, const ranks::Subdomain&);
template std::vector<double> cut_planes(const std::vector<double>&, int, const ranks::Subdomain&);
template std::vector<Half> cut_planes(const std::vector<Half>&, int, const ranks::Subdomain&);

}  // namespace flowlua::lbm_swe
