// Fields and diagnostics of the psi-omega model, computed on the host from a download
// of the node values. Snapshots are cell-centred like every other model's (the mean
// of a cell's four corner nodes), so sample(), PNGs and line() work unchanged.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "models/psi_omega/psi_omega_setup.hpp"

namespace flowlua::psi_omega {

namespace {

// Node velocities: central differences of psi inside; the given velocity on walls and
// inflows, zero normal and copied tangential velocity on slip sides, copied from the
// first interior node on an outflow; corners the mean of their two neighbours.
struct NodeVelocity {
  std::vector<double> u, v;
};

NodeVelocity node_velocity(const HostNodes& h) {
  const Grid& n = h.setup->nodes;
  const int NX = n.nx + 1, NY = n.ny + 1;
  NodeVelocity r;
  r.u.assign(n.size(), 0.0);
  r.v.assign(n.size(), 0.0);
  for (int j = 1; j < NY; ++j)
    for (int i = 1; i < NX; ++i) {
      r.u[n.at(i, j)] = (h.psi[n.at(i, j + 1)] - h.psi[n.at(i, j - 1)]) / (2 * n.dy);
      r.v[n.at(i, j)] = -(h.psi[n.at(i + 1, j)] - h.psi[n.at(i - 1, j)]) / (2 * n.dx);
    }
  for (Side side : kSides) {
    const SideCondition& sc = h.config->boundaries[int(side)];
    const bool lr = side == Side::Left || side == Side::Right;
    const int last = lr ? NY : NX;
    for (int k = 1; k < last; ++k) {
      int ib = 0, jb = 0, i1 = 0, j1 = 0;
      switch (side) {
        case Side::Left: ib = 0; jb = k; i1 = 1; j1 = k; break;
        case Side::Right: ib = NX; jb = k; i1 = NX - 1; j1 = k; break;
        case Side::Bottom: ib = k; jb = 0; i1 = k; j1 = 1; break;
        case Side::Top: ib = k; jb = NY; i1 = k; j1 = NY - 1; break;
      }
      const std::size_t b = n.at(ib, jb), c1 = n.at(i1, j1);
      double u = r.u[c1], v = r.v[c1];
      if (sc.kind == BoundaryKind::Dirichlet) {
        const double nrm = sc.normal.empty() ? 0.0 : sc.normal[k];
        const double tan = sc.tangential.empty() ? 0.0 : sc.tangential[k];
        switch (side) {
          case Side::Left: u = nrm; v = tan; break;
          case Side::Right: u = -nrm; v = tan; break;
          case Side::Bottom: v = nrm; u = tan; break;
          case Side::Top: v = -nrm; u = tan; break;
        }
      } else if (sc.kind == BoundaryKind::Slip) {
        (lr ? u : v) = 0;
      }
      r.u[b] = u;
      r.v[b] = v;
    }
  }
  for (int corner = 0; corner < 4; ++corner) {
    const int ic = (corner & 1) ? NX : 0, jc = (corner & 2) ? NY : 0;
    const int ix = (corner & 1) ? NX - 1 : 1, jy = (corner & 2) ? NY - 1 : 1;
    for (auto* f : {&r.u, &r.v}) (*f)[n.at(ic, jc)] = 0.5 * ((*f)[n.at(ix, jc)] + (*f)[n.at(ic, jy)]);
  }
  for (int node : h.setup->bodies.node) r.u[std::size_t(node)] = r.v[std::size_t(node)] = 0;  // at rest
  return r;
}

// Cell-centred snapshot from node values.
FieldSnapshot cells_from_nodes(const HostNodes& h, const std::string& name, const std::vector<double>& node) {
  const Grid& g = h.config->grid;
  const Grid& n = h.setup->nodes;
  FieldSnapshot f;
  f.name = name;
  f.grid = g;
  f.values.resize(std::size_t(g.nx) * g.ny);
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i)
      f.values[f.index(i, j)] = 0.25 * (node[n.at(i - 1, j - 1)] + node[n.at(i, j - 1)] + node[n.at(i - 1, j)] +
                                        node[n.at(i, j)]);
  // Cells of a body (all four corners body nodes) are solid.
  const std::vector<std::uint16_t>& body = h.setup->bodies.info;
  if (!body.empty()) {
    f.solid.assign(f.values.size(), 0);
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i)
        f.solid[f.index(i, j)] = (body[n.at(i - 1, j - 1)] & body[n.at(i, j - 1)] & body[n.at(i - 1, j)] &
                                  body[n.at(i, j)] & kBodyNode) != 0;
  }
  // Boundary values (FieldSnapshot::edge): the boundary nodes lie on the sides, so the
  // value beside a boundary cell is the mean of its two boundary nodes.
  f.edge[int(Side::Left)].resize(g.ny);
  f.edge[int(Side::Right)].resize(g.ny);
  f.edge[int(Side::Bottom)].resize(g.nx);
  f.edge[int(Side::Top)].resize(g.nx);
  for (int j = 1; j <= g.ny; ++j) {
    f.edge[int(Side::Left)][j - 1] = 0.5 * (node[n.at(0, j - 1)] + node[n.at(0, j)]);
    f.edge[int(Side::Right)][j - 1] = 0.5 * (node[n.at(g.nx, j - 1)] + node[n.at(g.nx, j)]);
  }
  for (int i = 1; i <= g.nx; ++i) {
    f.edge[int(Side::Bottom)][i - 1] = 0.5 * (node[n.at(i - 1, 0)] + node[n.at(i, 0)]);
    f.edge[int(Side::Top)][i - 1] = 0.5 * (node[n.at(i - 1, g.ny)] + node[n.at(i, g.ny)]);
  }
  return f;
}

// Mean over a side of the outward normal temperature gradient, from the second-order
// one-sided difference at each boundary node and the trapezoidal rule along the side.
double mean_outward_gradient(const HostNodes& h, Side side) {
  const Grid& n = h.setup->nodes;
  const int NX = n.nx + 1, NY = n.ny + 1;
  const bool lr = side == Side::Left || side == Side::Right;
  const int last = lr ? NY : NX;
  const double hn = lr ? n.dx : n.dy;
  double sum = 0;
  for (int k = 0; k <= last; ++k) {
    double t0, t1, t2;
    auto T = [&](int i, int j) { return h.T[n.at(i, j)]; };
    switch (side) {
      case Side::Left: t0 = T(0, k); t1 = T(1, k); t2 = T(2, k); break;
      case Side::Right: t0 = T(NX, k); t1 = T(NX - 1, k); t2 = T(NX - 2, k); break;
      case Side::Bottom: t0 = T(k, 0); t1 = T(k, 1); t2 = T(k, 2); break;
      default: t0 = T(k, NY); t1 = T(k, NY - 1); t2 = T(k, NY - 2); break;
    }
    const double g = (3 * t0 - 4 * t1 + t2) / (2 * hn);  // outward: from the interior to the wall
    sum += (k == 0 || k == last) ? 0.5 * g : g;
  }
  return sum / last;
}

}  // namespace

std::vector<std::string> field_names(bool heat) {
  std::vector<std::string> names = {"u", "v", "speed", "stream", "psi", "vorticity", "omega"};
  if (heat) names.push_back("T");
  return names;
}

FieldSnapshot node_field(const HostNodes& h, const std::string& name) {
  if (name == "stream" || name == "psi") return cells_from_nodes(h, name, h.psi);
  if (name == "vorticity" || name == "omega") return cells_from_nodes(h, name, h.w);
  if (name == "T" && !h.T.empty()) return cells_from_nodes(h, name, h.T);
  if (name == "u" || name == "v" || name == "speed") {
    NodeVelocity nv = node_velocity(h);
    if (name == "u") return cells_from_nodes(h, name, nv.u);
    if (name == "v") return cells_from_nodes(h, name, nv.v);
    FieldSnapshot u = cells_from_nodes(h, name, nv.u), v = cells_from_nodes(h, name, nv.v);
    for (std::size_t k = 0; k < u.values.size(); ++k) u.values[k] = std::hypot(u.values[k], v.values[k]);
    for (int side = 0; side < 4; ++side)
      for (std::size_t k = 0; k < u.edge[side].size(); ++k)
        u.edge[side][k] = std::hypot(u.edge[side][k], v.edge[side][k]);
    return u;
  }
  std::string list;
  for (const auto& s : field_names(!h.T.empty())) list += (list.empty() ? "'" : ", '") + s + "'";
  throw CaseError("unknown field '" + name + "' for the psi_omega model" +
                  (name == "T" ? std::string(" (T needs heat transport: fluid.kappa, Pr or Ra)") : "") +
                  "; fields: " + list);
}

void fill_diagnostics(const HostNodes& h, Diagnostics& d) {
  const Grid& g = h.config->grid;
  NodeVelocity nv = node_velocity(h);
  FieldSnapshot u = cells_from_nodes(h, "u", nv.u), v = cells_from_nodes(h, "v", nv.v);
  double ke = 0, vmax = 0;
  for (std::size_t k = 0; k < u.values.size(); ++k) ke += 0.5 * (u.values[k] * u.values[k] + v.values[k] * v.values[k]);
  for (std::size_t k = 0; k < nv.u.size(); ++k) vmax = std::max(vmax, std::hypot(nv.u[k], nv.v[k]));
  d.add("kinetic_energy", ke * g.dx * g.dy);
  d.add("max_speed", vmax);
  d.add("max_divergence", 0);  // u = dpsi/dy, v = -dpsi/dx: divergence-free by construction
  auto [lo, hi] = std::minmax_element(h.psi.begin(), h.psi.end());
  d.add("stream_min", *lo);
  d.add("stream_max", *hi);
  if (!h.T.empty())
    for (Side side : kSides) d.add(std::string("dTdn_") + side_name(side), mean_outward_gradient(h, side));
  const BodySetup& b = h.setup->bodies;
  for (std::size_t k = 0; k < b.obstacle_node.size(); ++k)  // psi_B of each obstacle's body
    d.add("stream_body_" + std::to_string(k + 1), h.psi[std::size_t(b.obstacle_node[k])]);
}

// The steady test's sample (sim/steady.hpp): u and v at every node (boundary nodes
// carry the walls' and inflows' velocities, so the largest |u|, |v| is the scale), and
// T with its range as the scale.
void fill_steady_sample(const HostNodes& h, SteadySample& out) {
  NodeVelocity nv = node_velocity(h);
  out.groups.resize(h.T.empty() ? 1 : 2);
  SteadySample::Group& vel = out.groups[0];
  vel.name = "velocity";
  vel.values.resize(nv.u.size() + nv.v.size());
  std::copy(nv.u.begin(), nv.u.end(), vel.values.begin());
  std::copy(nv.v.begin(), nv.v.end(), vel.values.begin() + std::ptrdiff_t(nv.u.size()));
  vel.scale = 0;
  for (double x : vel.values) vel.scale = std::max(vel.scale, std::abs(x));
  if (h.T.empty()) return;
  SteadySample::Group& temp = out.groups[1];
  temp.name = "temperature";
  temp.values.assign(h.T.begin(), h.T.end());
  auto [lo, hi] = std::minmax_element(h.T.begin(), h.T.end());
  temp.scale = *hi - *lo;
}

}  // namespace flowlua::psi_omega
