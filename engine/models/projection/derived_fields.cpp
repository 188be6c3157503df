#include "models/projection/derived_fields.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace flowlua::projection {

const std::vector<std::string>& field_names() {
  static const std::vector<std::string> names = {"u", "v", "p", "speed", "vorticity", "stream", "divergence", "solid"};
  return names;
}

namespace {

bool fluid(const HostState& s, int i, int j) { return is_fluid((*s.flags)[s.grid.at(i, j)]); }

// Value at cell centres for every interior cell.
template <class F>
FieldSnapshot make(const HostState& s, const std::string& name, F value) {
  FieldSnapshot f;
  f.name = name;
  f.grid = s.grid;
  const int nx = s.grid.nx, ny = s.grid.ny;
  f.values.resize(std::size_t(nx) * ny);
  f.solid.resize(std::size_t(nx) * ny);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) {
      f.values[f.index(i, j)] = value(i, j);
      f.solid[f.index(i, j)] = fluid(s, i, j) ? 0 : 1;
    }
  return f;
}

// Cell-centred velocity; obstacles are at rest (their faces hold ghost values).
double u_centre(const HostState& s, int i, int j) {
  return fluid(s, i, j) ? 0.5 * (s.u[s.grid.at(i - 1, j)] + s.u[s.grid.at(i, j)]) : 0.0;
}
double v_centre(const HostState& s, int i, int j) {
  return fluid(s, i, j) ? 0.5 * (s.v[s.grid.at(i, j - 1)] + s.v[s.grid.at(i, j)]) : 0.0;
}

// Vorticity dv/dx - du/dy at the cell corner (i, j), i.e. at x = i dx, y = j dy.
double corner_vorticity(const HostState& s, int i, int j) {
  const Grid& g = s.grid;
  return (s.v[g.at(i + 1, j)] - s.v[g.at(i, j)]) / g.dx - (s.u[g.at(i, j + 1)] - s.u[g.at(i, j)]) / g.dy;
}

// Pressure of a cell; inside an obstacle the mean of its fluid neighbours (NaSt2D
// sets boundary-cell pressure that way), 0 deep inside.
double pressure(const HostState& s, int i, int j) {
  const Grid& g = s.grid;
  if (fluid(s, i, j)) return s.rho * s.p[g.at(i, j)];
  double sum = 0;
  int n = 0;
  const int ii[4] = {i + 1, i - 1, i, i}, jj[4] = {j, j, j + 1, j - 1};
  for (int k = 0; k < 4; ++k)
    if (ii[k] >= 1 && ii[k] <= g.nx && jj[k] >= 1 && jj[k] <= g.ny && fluid(s, ii[k], jj[k])) {
      sum += s.p[g.at(ii[k], jj[k])];
      ++n;
    }
  return n ? s.rho * sum / n : 0.0;
}

double divergence(const HostState& s, int i, int j) {
  const Grid& g = s.grid;
  return (s.u[g.at(i, j)] - s.u[g.at(s.nb.west(i), j)]) / g.dx +
         (s.v[g.at(i, j)] - s.v[g.at(i, s.nb.south(j))]) / g.dy;
}

}  // namespace

FieldSnapshot derived_field(const HostState& s, const std::string& name) {
  const Grid& g = s.grid;
  if (name == "u") return make(s, name, [&](int i, int j) { return u_centre(s, i, j); });
  if (name == "v") return make(s, name, [&](int i, int j) { return v_centre(s, i, j); });
  if (name == "p") {
    FieldSnapshot f = make(s, name, [&](int i, int j) { return pressure(s, i, j); });
    f.writable = true;
    return f;
  }
  if (name == "speed")
    return make(s, name, [&](int i, int j) { return std::hypot(u_centre(s, i, j), v_centre(s, i, j)); });
  if (name == "vorticity")
    return make(s, name, [&](int i, int j) {
      if (!fluid(s, i, j)) return 0.0;
      return 0.25 * (corner_vorticity(s, i, j) + corner_vorticity(s, i - 1, j) + corner_vorticity(s, i, j - 1) +
                     corner_vorticity(s, i - 1, j - 1));
    });
  if (name == "divergence")
    return make(s, name, [&](int i, int j) { return fluid(s, i, j) ? divergence(s, i, j) : 0.0; });
  if (name == "solid") return make(s, name, [&](int i, int j) { return fluid(s, i, j) ? 0.0 : 1.0; });
  if (name == "stream") {
    // psi at corners: u = dpsi/dy, v = -dpsi/dx, psi = 0 at the lower-left corner.
    const int nx = g.nx, ny = g.ny;
    std::vector<double> psi(std::size_t(nx + 1) * (ny + 1));
    auto P = [&](int i, int j) -> double& { return psi[std::size_t(j) * (nx + 1) + i]; };
    P(0, 0) = 0;
    for (int i = 1; i <= nx; ++i) P(i, 0) = P(i - 1, 0) - s.v[g.at(i, 0)] * g.dx;
    for (int j = 1; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) P(i, j) = P(i, j - 1) + s.u[g.at(i, j)] * g.dy;
    return make(s, name, [&](int i, int j) {
      return 0.25 * (P(i, j) + P(i - 1, j) + P(i, j - 1) + P(i - 1, j - 1));
    });
  }
  std::ostringstream msg;
  msg << "unknown field '" << name << "'; fields of this model:";
  for (auto& n : field_names()) msg << ' ' << n;
  throw CaseError(msg.str());
}

Forces obstacle_forces(const HostState& s, const std::vector<int>& cell_obstacle, int obstacle) {
  // Sum over the faces between fluid cells and cells of this obstacle: pressure at
  // the fluid cell centre pushing on the face, and wall shear mu * u_t / (h / 2)
  // with the tangential velocity at the fluid cell centre. First order in h on
  // staircase shapes; see docs/case-language.md.
  const Grid& g = s.grid;
  const double mu = s.rho * s.nu;
  Forces f;
  auto owner = [&](int i, int j) {
    if (i < 1 || i > g.nx || j < 1 || j > g.ny) return -1;
    if (fluid(s, i, j)) return -1;
    return cell_obstacle.empty() ? 0 : cell_obstacle[std::size_t(i - 1) + std::size_t(j - 1) * g.nx];
  };
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      if (!fluid(s, i, j)) continue;
      const double p = s.rho * s.p[g.at(i, j)];
      const double uc = u_centre(s, i, j), vc = v_centre(s, i, j);
      if (owner(i + 1, j) == obstacle) { f.fx += p * g.dy; f.fy += mu * vc / (0.5 * g.dx) * g.dy; }
      if (owner(i - 1, j) == obstacle) { f.fx -= p * g.dy; f.fy += mu * vc / (0.5 * g.dx) * g.dy; }
      if (owner(i, j + 1) == obstacle) { f.fy += p * g.dx; f.fx += mu * uc / (0.5 * g.dy) * g.dx; }
      if (owner(i, j - 1) == obstacle) { f.fy -= p * g.dx; f.fx += mu * uc / (0.5 * g.dy) * g.dx; }
    }
  return f;
}

void fill_flow_diagnostics(const HostState& s, Diagnostics& d) {
  const Grid& g = s.grid;
  double ke = 0, vmax = 0, dmax = 0;
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      if (!fluid(s, i, j)) continue;
      const double uc = u_centre(s, i, j), vc = v_centre(s, i, j);
      ke += 0.5 * (uc * uc + vc * vc) * g.dx * g.dy;
      vmax = std::max(vmax, std::hypot(uc, vc));
      dmax = std::max(dmax, std::abs(divergence(s, i, j)));
    }
  d.add("kinetic_energy", ke);
  d.add("max_speed", vmax);
  d.add("max_divergence", dmax);
}

}  // namespace flowlua::projection
