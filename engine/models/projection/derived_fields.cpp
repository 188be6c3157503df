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

// Shown as solid: an obstacle cell of the solver, or a cell inside an immersed body.
bool shown_solid(const HostState& s, int i, int j) {
  if (s.body_cells && (*s.body_cells)[std::size_t(i - 1) + std::size_t(j - 1) * s.grid.nx]) return true;
  return !fluid(s, i, j);
}

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
      f.solid[f.index(i, j)] = shown_solid(s, i, j) ? 1 : 0;
    }
  return f;
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

// A fluid cell whose continuity the projection enforces (not a cell of an immersed
// body with no free face).
bool held_divergence_free(const HostState& s, int i, int j) {
  if (!fluid(s, i, j)) return false;
  return !(s.immersed && s.immersed->source[s.grid.at(i, j)]);
}

// The flux per unit length through u face (i, j) (is_u) or v face (i, j) of an
// immersed geometry (core/immersed.hpp, FaceForcing::edge_weight).
double cut_flux(const HostState& s, bool is_u, int i, int j) {
  const FaceForcing& f = is_u ? s.immersed->u : s.immersed->v;
  const std::vector<double>& vel = is_u ? s.u : s.v;
  const std::size_t c = s.grid.at(i, j);
  const double a = f.aperture[c];
  if (a == 1) return vel[c];
  double flux = f.edge_const[c] + (f.code[c] == kFaceFree ? a * vel[c] : 0.0);
  if (const int side = f.edge_side[c]) flux += f.edge_weight[c] * vel[s.grid.at(is_u ? i : i + side, is_u ? j + side : j)];
  return flux;
}

// div u of cell (i, j); with immersed bodies the cut-cell balance that the projection
// holds (models/projection/immersed_mass.hpp): the flux through the fluid part of
// each edge, plus the outflow through the surface in the cell.
double divergence(const HostState& s, int i, int j) {
  const Grid& g = s.grid;
  const int iw = s.nb.west(i), js = s.nb.south(j);
  if (!s.immersed) return (s.u[g.at(i, j)] - s.u[g.at(iw, j)]) / g.dx + (s.v[g.at(i, j)] - s.v[g.at(i, js)]) / g.dy;
  auto cell = [&](int a, int b) {
    return (cut_flux(s, true, a, b) - cut_flux(s, true, s.nb.west(a), b)) / g.dx +
           (cut_flux(s, false, a, b) - cut_flux(s, false, a, s.nb.south(b))) / g.dy +
           s.immersed->surface_flux[g.at(a, b)];
  };
  double d = cell(i, j);
  // the source cells merged into this one's balance (ImmersedGeometry::merge)
  const int m = s.immersed->merge[g.at(i, j)];
  if (m & 1) d += cell(s.nb.west(i), j);
  if (m & 2) d += cell(s.nb.east(i), j);
  if (m & 4) d += cell(i, s.nb.south(j));
  if (m & 8) d += cell(i, s.nb.north(j));
  return d;
}

// The full-face divergence, whose sum over a set of cells is the net outflow through
// its boundary.
double outflow(const HostState& s, int i, int j) {
  const Grid& g = s.grid;
  return (s.u[g.at(i, j)] - s.u[g.at(s.nb.west(i), j)]) / g.dx +
         (s.v[g.at(i, j)] - s.v[g.at(i, s.nb.south(j))]) / g.dy;
}

// Cells along a side: (i, j) of boundary cell k.
void side_cell(const Grid& g, Side side, int k, int& i, int& j) {
  switch (side) {
    case Side::Left: i = 1; j = k; break;
    case Side::Right: i = g.nx; j = k; break;
    case Side::Bottom: i = k; j = 1; break;
    case Side::Top: i = k; j = g.ny; break;
  }
}

// Boundary values of the cell-centred velocity (FieldSnapshot::edge): the given
// velocity on walls and inflows, zero normal velocity on slip sides, the mean of the
// two wrapped cells on periodic ones; none for outflow and the tangential slip
// velocity (zero gradient there: sample() repeats the nearest centre). Zero beside an
// obstacle cell, which is at rest.
void velocity_edges(const HostState& s, FieldSnapshot& u, FieldSnapshot& v) {
  if (!s.boundaries) return;
  const Grid& g = s.grid;
  for (Side side : kSides) {
    const SideCondition& sc = (*s.boundaries)[int(side)];
    const bool lr = side == Side::Left || side == Side::Right;
    const int n = lr ? g.ny : g.nx;
    auto& eu = u.edge[int(side)];
    auto& ev = v.edge[int(side)];
    switch (sc.kind) {
      case BoundaryKind::Dirichlet:
        if (int(sc.normal.size()) < n || int(sc.tangential.size()) < n) break;
        eu.resize(n);
        ev.resize(n);
        for (int k = 1; k <= n; ++k) {
          const double nrm = sc.normal[k - 1], tan = sc.tangential[k - 1];
          switch (side) {  // normal > 0 points into the domain (core/boundary.hpp)
            case Side::Left: eu[k - 1] = nrm; ev[k - 1] = tan; break;
            case Side::Right: eu[k - 1] = -nrm; ev[k - 1] = tan; break;
            case Side::Bottom: ev[k - 1] = nrm; eu[k - 1] = tan; break;
            case Side::Top: ev[k - 1] = -nrm; eu[k - 1] = tan; break;
          }
        }
        break;
      case BoundaryKind::Slip: (lr ? eu : ev).assign(n, 0.0); break;
      case BoundaryKind::Periodic:
        eu.resize(n);
        ev.resize(n);
        for (int k = 1; k <= n; ++k) {
          const int i0 = lr ? 1 : k, j0 = lr ? k : 1, i1 = lr ? g.nx : k, j1 = lr ? k : g.ny;
          eu[k - 1] = 0.5 * (u.get(i0, j0) + u.get(i1, j1));
          ev[k - 1] = 0.5 * (v.get(i0, j0) + v.get(i1, j1));
        }
        break;
      case BoundaryKind::Outflow: break;
    }
    for (auto* e : {&eu, &ev}) {
      if (e->empty()) continue;
      for (int k = 1; k <= n; ++k) {
        int i = 0, j = 0;
        side_cell(g, side, k, i, j);
        if (!fluid(s, i, j)) (*e)[k - 1] = 0;
      }
    }
  }
}

}  // namespace

bool fluid_cell(const HostState& s, int i, int j) { return fluid(s, i, j); }

// Cell-centred velocity; obstacles are at rest (their faces hold ghost values), and
// so are cells inside immersed bodies in snapshots (their faces hold forced values:
// ghosts that continue the fluid's profile, or the body's own motion).
double u_centre(const HostState& s, int i, int j) {
  return !shown_solid(s, i, j) ? 0.5 * (s.u[s.grid.at(i - 1, j)] + s.u[s.grid.at(i, j)]) : 0.0;
}
double v_centre(const HostState& s, int i, int j) {
  return !shown_solid(s, i, j) ? 0.5 * (s.v[s.grid.at(i, j - 1)] + s.v[s.grid.at(i, j)]) : 0.0;
}

FieldSnapshot derived_field(const HostState& s, const std::string& name) {
  const Grid& g = s.grid;
  if (name == "u" || name == "v" || name == "speed") {
    FieldSnapshot u = make(s, "u", [&](int i, int j) { return u_centre(s, i, j); });
    FieldSnapshot v = make(s, "v", [&](int i, int j) { return v_centre(s, i, j); });
    velocity_edges(s, u, v);
    if (name == "u") return u;
    if (name == "v") return v;
    FieldSnapshot sp = std::move(u);
    sp.name = name;
    for (std::size_t k = 0; k < sp.values.size(); ++k) sp.values[k] = std::hypot(sp.values[k], v.values[k]);
    for (Side side : kSides) {
      auto& e = sp.edge[int(side)];
      const auto& ev = v.edge[int(side)];
      if (e.empty() || ev.empty()) e.clear();  // both components are needed
      else for (std::size_t k = 0; k < e.size(); ++k) e[k] = std::hypot(e[k], ev[k]);
    }
    return sp;
  }
  if (name == "p") {
    FieldSnapshot f = make(s, name, [&](int i, int j) { return pressure(s, i, j); });
    f.writable = true;
    return f;
  }
  if (name == "vorticity")
    return make(s, name, [&](int i, int j) {
      if (!fluid(s, i, j)) return 0.0;
      return 0.25 * (corner_vorticity(s, i, j) + corner_vorticity(s, i - 1, j) + corner_vorticity(s, i, j - 1) +
                     corner_vorticity(s, i - 1, j - 1));
    });
  if (name == "divergence")
    return make(s, name, [&](int i, int j) { return held_divergence_free(s, i, j) ? divergence(s, i, j) : 0.0; });
  if (name == "solid") return make(s, name, [&](int i, int j) { return shown_solid(s, i, j) ? 1.0 : 0.0; });
  if (name == "stream") {
    // psi at corners: u = dpsi/dy, v = -dpsi/dx, psi = 0 at the lower-left corner.
    const int nx = g.nx, ny = g.ny;
    std::vector<double> psi(std::size_t(nx + 1) * (ny + 1));
    auto P = [&](int i, int j) -> double& { return psi[std::size_t(j) * (nx + 1) + i]; };
    P(0, 0) = 0;
    for (int i = 1; i <= nx; ++i) P(i, 0) = P(i - 1, 0) - s.v[g.at(i, 0)] * g.dx;
    for (int j = 1; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) P(i, j) = P(i, j - 1) + s.u[g.at(i, j)] * g.dy;
    FieldSnapshot f = make(s, name, [&](int i, int j) {
      return 0.25 * (P(i, j) + P(i - 1, j) + P(i, j - 1) + P(i - 1, j - 1));
    });
    // On the sides psi is known at the corners: the mean of the two beside a cell.
    for (Side side : kSides) {
      const bool lr = side == Side::Left || side == Side::Right;
      auto& e = f.edge[int(side)];
      e.resize(lr ? ny : nx);
      for (int k = 1; k <= int(e.size()); ++k)
        switch (side) {
          case Side::Left: e[k - 1] = 0.5 * (P(0, k - 1) + P(0, k)); break;
          case Side::Right: e[k - 1] = 0.5 * (P(nx, k - 1) + P(nx, k)); break;
          case Side::Bottom: e[k - 1] = 0.5 * (P(k - 1, 0) + P(k, 0)); break;
          case Side::Top: e[k - 1] = 0.5 * (P(k - 1, ny) + P(k, ny)); break;
        }
    }
    return f;
  }
  std::ostringstream msg;
  msg << "unknown field '" << name << "'; fields of this model:";
  for (auto& n : field_names()) msg << ' ' << n;
  throw CaseError(msg.str());
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
      if (held_divergence_free(s, i, j)) dmax = std::max(dmax, std::abs(divergence(s, i, j)));
    }
  d.add("kinetic_energy", ke);
  d.add("max_speed", vmax);
  d.add("max_divergence", dmax);
  if (s.immersed) {
    // The volume flux (per unit depth) into the immersed bodies: the net inflow into
    // the cells within two cells of a body's cell, whose boundary is a contour in the
    // fluid around the bodies (0 where they neither swallow nor create fluid, to the
    // pressure tolerance and, while the flow changes, the cut-cell balance's lag).
    double inflow = 0;
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i)
        if (s.immersed->near_body[g.at(i, j)]) inflow -= outflow(s, i, j) * g.dx * g.dy;
    d.add("body_inflow", inflow);
  }
}

}  // namespace flowlua::projection
