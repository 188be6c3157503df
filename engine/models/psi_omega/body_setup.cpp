// Host set-up of the bodies of a psi-omega case (body_setup.hpp).
#include "models/psi_omega/body_setup.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <sstream>

#include "core/error.hpp"

namespace flowlua::psi_omega {

namespace {

std::string obstacle_name(int k) { return "obstacles[" + std::to_string(k + 1) + "]"; }

// The obstacles owning the nodes of a component, as "obstacles[1] and obstacles[3]".
std::string obstacle_list(const std::vector<int>& ids) {
  std::string s;
  for (std::size_t k = 0; k < ids.size(); ++k)
    s += (k == 0 ? "" : k + 1 == ids.size() ? " and " : ", ") + obstacle_name(ids[k]);
  return s.empty() ? "a body" : s;
}

}  // namespace

BodySetup build_bodies(const PsiOmegaConfig& c, const Grid& g, const std::vector<double>& ring_psi,
                       int outflow_side) {
  BodySetup b;
  const BodyConfig& bc = c.bodies;
  b.obstacles = bc.count;
  if (bc.solid.empty() || bc.count == 0) return b;
  const int NX = g.nx + 1, NY = g.ny + 1;  // last node index per direction
  const int pitch = g.nx + 2;
  const std::size_t n = g.size();
  if (bc.solid.size() != n || (!bc.obstacle_id.empty() && bc.obstacle_id.size() != n))
    throw CaseError("obstacles: the node mask has the wrong size");
  auto at = [&](int i, int j) { return std::size_t(j) * pitch + i; };
  auto inside = [&](int i, int j) { return i >= 0 && i <= NX && j >= 0 && j <= NY; };
  auto id_at = [&](std::size_t k) { return bc.obstacle_id.empty() ? 0 : bc.obstacle_id[k]; };

  // Body cells (i, j): corners (i..i+1, j..j+1), all inside a shape; owner: the latest
  // obstacle among the corners.
  std::vector<int> cell(std::size_t(NX) * NY, -1);
  auto cell_at = [&](int i, int j) { return std::size_t(j) * NX + i; };
  std::vector<std::uint8_t> solid(bc.solid.begin(), bc.solid.end());
  auto full_cells = [&](const std::vector<int>& node_id) {
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i) {
        int owner = -1;
        bool all = true;
        for (int q = 0; q < 4 && all; ++q) {
          const std::size_t k = at(i + (q & 1), j + (q >> 1));
          all = solid[k] != 0;
          owner = std::max(owner, node_id[k]);
        }
        cell[cell_at(i, j)] = all ? std::max(owner, 0) : -1;
      }
  };
  std::vector<int> node_id(n, -1);
  for (std::size_t k = 0; k < n; ++k)
    if (solid[k]) node_id[k] = id_at(k);
  full_cells(node_id);
  // Body nodes: the corners of body cells (a solid node in no whole cell is dropped).
  auto corners = [&]() {
    std::fill(solid.begin(), solid.end(), 0);
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i)
        if (cell[cell_at(i, j)] >= 0)
          for (int q = 0; q < 4; ++q) solid[at(i + (q & 1), j + (q >> 1))] = 1;
  };
  corners();
  // Enclosed fluid: non-body nodes with no path of non-body neighbours to the ring.
  {
    std::vector<std::uint8_t> reached(n, 0);
    std::deque<std::pair<int, int>> queue;
    for (int j = 0; j <= NY; ++j)
      for (int i = 0; i <= NX; ++i)
        if ((i == 0 || i == NX || j == 0 || j == NY) && !solid[at(i, j)]) {
          reached[at(i, j)] = 1;
          queue.emplace_back(i, j);
        }
    while (!queue.empty()) {
      auto [i, j] = queue.front();
      queue.pop_front();
      const int di[4] = {1, -1, 0, 0}, dj[4] = {0, 0, 1, -1};
      for (int d = 0; d < 4; ++d) {
        const int a = i + di[d], e = j + dj[d];
        if (!inside(a, e) || solid[at(a, e)] || reached[at(a, e)]) continue;
        reached[at(a, e)] = 1;
        queue.emplace_back(a, e);
      }
    }
    for (std::size_t k = 0; k < n; ++k)
      if (!solid[k] && !reached[k]) {
        solid[k] = 1;
        ++b.filled;
      }
    if (b.filled > 0) {
      full_cells(node_id);  // filled nodes carry no obstacle; their cells take the corners' latest
      corners();
    }
  }
  for (int k = 0; k < bc.count; ++k) {
    bool any = false;
    for (int j = 0; j < NY && !any; ++j)
      for (int i = 0; i < NX && !any; ++i) any = cell[cell_at(i, j)] == k;
    if (!any)
      throw CaseError(obstacle_name(k) +
                      " covers no grid cell: in the psi_omega model a cell belongs to a body when its four "
                      "corner nodes are inside the shape; make it at least one cell (dx = " +
                      std::to_string(g.dx) + ", dy = " + std::to_string(g.dy) +
                      ") wide and high, or refine the grid");
  }
  bool fluid_left = false;
  for (int j = 1; j < NY && !fluid_left; ++j)
    for (int i = 1; i < NX && !fluid_left; ++i) fluid_left = !solid[at(i, j)];
  if (!fluid_left) throw CaseError("the obstacles cover every grid node: no fluid is left");

  // Per node: the latest obstacle among its body cells (thermal condition).
  std::fill(node_id.begin(), node_id.end(), -1);
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i) {
      const int o = cell[cell_at(i, j)];
      if (o < 0) continue;
      ++b.cells;
      for (int q = 0; q < 4; ++q) {
        int& id = node_id[at(i + (q & 1), j + (q >> 1))];
        id = std::max(id, o);
      }
    }

  // Node bits: body, fluid neighbours (interior nodes only: the ring is the sides').
  auto fluid = [&](int i, int j) { return i >= 1 && i < NX && j >= 1 && j < NY && !solid[at(i, j)]; };
  const int di[4] = {1, -1, 0, 0}, dj[4] = {0, 0, 1, -1};
  b.info.assign(n, 0);
  for (int j = 0; j <= NY; ++j)
    for (int i = 0; i <= NX; ++i) {
      if (!solid[at(i, j)]) continue;
      std::uint16_t bits = kBodyNode;
      for (int d = 0; d < 4; ++d)
        if (fluid(i + di[d], j + dj[d])) {
          bits |= std::uint16_t(kBodyNear << d);
          if (fluid(i + 2 * di[d], j + 2 * dj[d])) bits |= std::uint16_t(kBodyFar << d);
        }
      b.info[at(i, j)] = bits;
    }

  // Connected bodies (8-neighbours).
  std::vector<int> comp(n, -1);
  std::vector<std::vector<int>> members;
  for (int j = 0; j <= NY; ++j)
    for (int i = 0; i <= NX; ++i) {
      if (!solid[at(i, j)] || comp[at(i, j)] >= 0) continue;
      const int id = int(members.size());
      members.emplace_back();
      std::deque<std::pair<int, int>> queue{{i, j}};
      comp[at(i, j)] = id;
      while (!queue.empty()) {
        auto [a, e] = queue.front();
        queue.pop_front();
        members[id].push_back(int(at(a, e)));
        for (int q = -1; q <= 1; ++q)
          for (int r = -1; r <= 1; ++r) {
            const int x = a + q, y = e + r;
            if (!inside(x, y) || !solid[at(x, y)] || comp[at(x, y)] >= 0) continue;
            comp[at(x, y)] = id;
            queue.emplace_back(x, y);
          }
      }
    }
  b.components = int(members.size());
  b.free_index.assign(members.size(), -1);
  b.attached_ring.assign(members.size(), -1);
  b.obstacle_shared.assign(std::size_t(bc.count), 0);
  b.obstacle_attached.assign(std::size_t(bc.count), 0);
  std::vector<std::vector<int>> owners(members.size());
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i) {
      const int o = cell[cell_at(i, j)];
      if (o < 0) continue;
      const int cp = comp[at(i, j)];
      if (std::find(owners[cp].begin(), owners[cp].end(), o) == owners[cp].end()) owners[cp].push_back(o);
    }
  for (auto& o : owners) std::sort(o.begin(), o.end());
  for (const auto& o : owners)
    if (o.size() > 1)
      for (int k : o) b.obstacle_shared[k] = 1;

  // Attached bodies: a node on or next to the ring (no fluid node between it and the
  // side); they take the side's stream function, which must be one value there.
  double scale = 0;
  for (double v : ring_psi) scale = std::max(scale, std::abs(v));
  for (std::size_t cp = 0; cp < members.size(); ++cp) {
    int ring = -1;
    for (int k : members[cp]) {
      const int i = k % pitch, j = k / pitch;
      for (int q = -1; q <= 1; ++q)
        for (int r = -1; r <= 1; ++r) {
          const int x = i + q, y = j + r;
          if (!inside(x, y) || (x != 0 && x != NX && y != 0 && y != NY)) continue;
          const bool on_outflow = (x == 0 && outflow_side == int(Side::Left)) ||
                                  (x == NX && outflow_side == int(Side::Right)) ||
                                  (y == 0 && outflow_side == int(Side::Bottom)) ||
                                  (y == NY && outflow_side == int(Side::Top));
          if (on_outflow)
            throw CaseError(obstacle_list(owners[cp]) + " touches the " + side_name(Side(outflow_side)) +
                            " side, an outflow: leave at least one fluid node between a body and an outflow "
                            "(the stream function there is not fixed)");
          const int rk = int(at(x, y));
          if (ring < 0) ring = rk;
          else if (std::abs(ring_psi[rk] - ring_psi[ring]) > 1e-9 * std::max(scale, 1e-30))
            throw CaseError(obstacle_list(owners[cp]) +
                            " touches the sides where their stream function differs (fluid flows in through "
                            "a side it touches, or between two sides it touches, so it would block the flow): "
                            "a body may touch walls and slip sides with no flow between them; move it off the "
                            "side");
        }
    }
    b.attached_ring[cp] = ring;
    if (ring < 0) b.free_index[cp] = b.free_count++;
    else
      for (int k : owners[cp]) b.obstacle_attached[k] = 1;
  }

  // The body list.
  for (int j = 0; j <= NY; ++j)
    for (int i = 0; i <= NX; ++i) {
      const std::size_t k = at(i, j);
      if (!solid[k]) continue;
      b.node.push_back(int(k));
      b.component.push_back(comp[k]);
      const int o = node_id[k];
      BodyConfig::Thermal th;
      if (o >= 0 && std::size_t(o) < bc.T.size()) th = bc.T[std::size_t(o)];
      b.thermal.push_back(th.kind == ScalarCondition::Kind::Dirichlet ? kBodyTDirichlet
                          : th.kind == ScalarCondition::Kind::Neumann ? kBodyTNeumann
                                                                       : kBodyAdiabatic);
      b.T.push_back(th.value);
      ++b.nodes;
    }

  // Surface edges of free bodies: a body cell's side facing a cell of the domain that
  // is not a body cell, directed with the body on the left.
  b.obstacle_node.assign(std::size_t(bc.count), -1);
  b.ref_x.assign(std::size_t(bc.count), 0.0);
  b.ref_y.assign(std::size_t(bc.count), 0.0);
  std::vector<long> count(std::size_t(bc.count), 0);
  auto body_cell = [&](int i, int j) { return i >= 0 && i < NX && j >= 0 && j < NY && cell[cell_at(i, j)] >= 0; };
  auto in_domain_cell = [&](int i, int j) { return i >= 0 && i < NX && j >= 0 && j < NY; };
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i) {
      const int o = cell[cell_at(i, j)];
      if (o < 0) continue;
      if (b.obstacle_node[o] < 0) b.obstacle_node[o] = int(at(i, j));
      b.ref_x[o] += (i + 0.5) * g.dx;
      b.ref_y[o] += (j + 0.5) * g.dy;
      ++count[o];
      const int cp = comp[at(i, j)];
      if (b.free_index[cp] < 0) continue;
      // d: normal direction (east, west, north, south); the neighbouring cell; ends a, b.
      const struct { int d, ci, cj, ai, aj, bi, bj; } sides[4] = {
          {0, i + 1, j, i + 1, j, i + 1, j + 1},
          {1, i - 1, j, i, j + 1, i, j},
          {2, i, j + 1, i + 1, j + 1, i, j + 1},
          {3, i, j - 1, i, j, i + 1, j}};
      for (const auto& sd : sides) {
        if (!in_domain_cell(sd.ci, sd.cj) || body_cell(sd.ci, sd.cj)) continue;
        b.edges.insert(b.edges.end(), {int(at(sd.ai, sd.aj)), int(at(sd.bi, sd.bj)), sd.d, b.free_index[cp]});
        b.edge_obstacle.push_back(o);
      }
    }
  for (int k = 0; k < bc.count; ++k)
    if (count[k] > 0) {
      b.ref_x[k] /= double(count[k]);
      b.ref_y[k] /= double(count[k]);
    }

  // The box of each free body (bodies.hpp): node lines a margin m clear of it, inside
  // the interior nodes, its frame fluid, no other body inside; m from a quarter of the
  // body's size (at least 2) down to 1.
  b.box_margin.assign(std::size_t(b.free_count), 0);
  for (std::size_t cp = 0; cp < members.size(); ++cp) {
    if (b.free_index[cp] < 0) continue;
    int bi0 = NX, bi1 = 0, bj0 = NY, bj1 = 0;
    for (int k : members[cp]) {
      const int i = k % pitch, j = k / pitch;
      bi0 = std::min(bi0, i), bi1 = std::max(bi1, i), bj0 = std::min(bj0, j), bj1 = std::max(bj1, j);
    }
    auto fits = [&](int i0, int i1, int j0, int j1) {
      if (i0 < 1 || j0 < 1 || i1 > NX - 1 || j1 > NY - 1) return false;
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) {
          const std::size_t k = at(i, j);
          if (!solid[k]) continue;
          if (i == i0 || i == i1 || j == j0 || j == j1 || comp[k] != int(cp)) return false;
        }
      return true;
    };
    int m = std::max(2, std::max(bi1 - bi0, bj1 - bj0) / 4);
    for (; m >= 1; --m)
      if (fits(bi0 - m, bi1 + m, bj0 - m, bj1 + m)) break;
    if (m < 1)
      throw CaseError(obstacle_list(owners[cp]) +
                      ": no grid line around this body is free of the sides and of other bodies; the psi_omega "
                      "model takes the body's stream function from the circulation along such a box (the "
                      "single-valued pressure around it): leave at least two fluid nodes between it and other "
                      "bodies, or make them one obstacle");
    b.box_margin[std::size_t(b.free_index[cp])] = m;
    const int i0 = bi0 - m, i1 = bi1 + m, j0 = bj0 - m, j1 = bj1 + m, f = b.free_index[cp];
    for (int i = i0; i < i1; ++i) b.segments.insert(b.segments.end(), {int(at(i, j0)), int(at(i + 1, j0)), 0, f});
    for (int j = j0; j < j1; ++j) b.segments.insert(b.segments.end(), {int(at(i1, j)), int(at(i1, j + 1)), 2, f});
    for (int i = i1; i > i0; --i) b.segments.insert(b.segments.end(), {int(at(i, j1)), int(at(i - 1, j1)), 1, f});
    for (int j = j1; j > j0; --j) b.segments.insert(b.segments.end(), {int(at(i0, j)), int(at(i0, j - 1)), 3, f});
  }
  return b;
}

std::vector<double> body_stream_values(const BodySetup& b, const std::vector<double>& ring_psi,
                                       const std::vector<double>& current) {
  std::vector<double> v(std::size_t(b.components), 0.0);
  for (int cp = 0; cp < b.components; ++cp) {
    if (b.attached_ring[cp] >= 0) v[cp] = ring_psi[std::size_t(b.attached_ring[cp])];
    else if (std::size_t(cp) < current.size()) v[cp] = current[cp];
  }
  return v;
}

bool solve_dense(std::vector<double> A, std::vector<double>& r) {
  const int K = int(r.size());
  for (int p = 0; p < K; ++p) {
    int m = p;
    for (int q = p + 1; q < K; ++q)
      if (std::abs(A[q * K + p]) > std::abs(A[m * K + p])) m = q;
    if (!(std::abs(A[m * K + p]) > 0)) return false;
    if (m != p) {
      for (int q = 0; q < K; ++q) std::swap(A[p * K + q], A[m * K + q]);
      std::swap(r[p], r[m]);
    }
    for (int q = p + 1; q < K; ++q) {
      const double f = A[q * K + p] / A[p * K + p];
      for (int t = p; t < K; ++t) A[q * K + t] -= f * A[p * K + t];
      r[q] -= f * r[p];
    }
  }
  for (int p = K - 1; p >= 0; --p) {
    double s = r[p];
    for (int q = p + 1; q < K; ++q) s -= A[p * K + q] * r[q];
    r[p] = s / A[p * K + p];
  }
  return true;
}

std::string describe_bodies(const BodySetup& b) {
  if (!b.any()) return "";
  std::string margins = "0";
  if (!b.box_margin.empty()) {
    const auto [lo, hi] = std::minmax_element(b.box_margin.begin(), b.box_margin.end());
    margins = std::to_string(*lo) + (*hi > *lo ? " to " + std::to_string(*hi) : "");
  }
  std::ostringstream o;
  o << "  bodies     " << b.obstacles << " obstacle" << (b.obstacles == 1 ? "" : "s") << " on " << b.cells
    << " cells (" << b.nodes << " nodes), " << b.components << " connected bod" << (b.components == 1 ? "y" : "ies")
    << ": " << b.free_count << " free (psi_B from the single-valued pressure around it: Kelvin's circulation "
    << "theorem on a box " << margins << " nodes clear of the body), "
    << b.components - b.free_count
    << " touching a side (its psi); Thom's wall vorticity on their faces";
  if (b.filled > 0) o << "; " << b.filled << " enclosed fluid nodes closed";
  o << "\n";
  return o.str();
}

}  // namespace flowlua::psi_omega
