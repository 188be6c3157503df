#include "models/lbm_swe/swe_fields.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "models/lbm_swe/d2q9.hpp"

namespace flowlua::lbm_swe {

namespace {
bool solid_at(const LbmSweConfig& c, long k) { return !c.solid.empty() && c.solid[k] != 0; }
double bed_at(const LbmSweConfig& c, long k) { return c.bed.empty() ? 0.0 : c.bed[k]; }
}  // namespace

HostState host_state(const LbmSweConfig& c, double e, const std::vector<double>& f) {
  HostState s;
  s.config = &c;
  s.e = e;
  const long n = long(c.grid.nx) * c.grid.ny;
  s.h.assign(n, 0.0);
  s.u.assign(n, 0.0);
  s.v.assign(n, 0.0);
  for (long k = 0; k < n; ++k) {
    if (solid_at(c, k)) continue;
    double h = 0, mx = 0, my = 0;
    for (int a = 0; a < kQ; ++a) {
      const double fa = f[a * n + k];
      h += fa;
      mx += cx(a) * fa;
      my += cy(a) * fa;
    }
    s.h[k] = h;
    s.u[k] = mx / h * e;
    s.v[k] = my / h * e;
  }
  return s;
}

std::vector<std::string> field_names() { return {"h", "eta", "u", "v", "speed", "bed", "froude", "vorticity"}; }

FieldSnapshot make_field(const HostState& s, const std::string& name) {
  const LbmSweConfig& c = *s.config;
  const Grid& g = c.grid;
  const int nx = g.nx, ny = g.ny;
  FieldSnapshot out;
  out.name = name;
  out.grid = g;
  out.values.assign(std::size_t(nx) * ny, 0.0);
  if (!c.solid.empty()) out.solid = c.solid;
  auto val = [&](long k) -> double {
    if (name == "h") return s.h[k];
    if (name == "eta") return s.h[k] + bed_at(c, k);
    if (name == "u") return s.u[k];
    if (name == "v") return s.v[k];
    if (name == "speed") return std::hypot(s.u[k], s.v[k]);
    if (name == "bed") return bed_at(c, k);
    if (name == "froude") return s.h[k] > 0 ? std::hypot(s.u[k], s.v[k]) / std::sqrt(c.gravity * s.h[k]) : 0.0;
    // vorticity dv/dx - du/dy, central differences (one-sided at the sides)
    const int i = int(k % nx), j = int(k / nx);
    const int il = std::max(i - 1, 0), ir = std::min(i + 1, nx - 1), jb = std::max(j - 1, 0), jt = std::min(j + 1, ny - 1);
    const double dvdx = (s.v[ir + long(j) * nx] - s.v[il + long(j) * nx]) / ((ir - il) * g.dx);
    const double dudy = (s.u[i + long(jt) * nx] - s.u[i + long(jb) * nx]) / ((jt - jb) * g.dy);
    return dvdx - dudy;
  };
  static const std::vector<std::string> names = field_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    throw CaseError("unknown field '" + name + "' for model = 'lbm_swe' (fields: " + all + ")");
  }
  for (long k = 0; k < long(nx) * ny; ++k) out.values[k] = val(k);
  return out;
}

void add_diagnostics(const HostState& s, Diagnostics& d) {
  const LbmSweConfig& c = *s.config;
  const double area = c.grid.dx * c.grid.dy;
  double vol = 0, mx = 0, my = 0, energy = 0, vmax = 0, frmax = 0;
  for (long k = 0; k < long(s.h.size()); ++k) {
    if (solid_at(c, k)) continue;
    const double h = s.h[k], sp2 = s.u[k] * s.u[k] + s.v[k] * s.v[k];
    vol += h;
    mx += h * s.u[k];
    my += h * s.v[k];
    // kinetic plus potential energy per unit density: h |u|^2 / 2 + g h (z + h / 2)
    energy += 0.5 * h * sp2 + c.gravity * h * (bed_at(c, k) + 0.5 * h);
    vmax = std::max(vmax, std::sqrt(sp2));
    if (h > 0) frmax = std::max(frmax, std::sqrt(sp2 / (c.gravity * h)));
  }
  d.add("volume", vol * area);
  d.add("momentum_x", mx * area);
  d.add("momentum_y", my * area);
  d.add("energy", energy * area);
  d.add("max_speed", vmax);
  d.add("max_froude", frmax);
}

void fill_steady_sample(const HostState& s, SteadySample& out) {
  // Velocity relative to the largest speed, or, in water at rest, to the gravity-wave
  // speed sqrt(g h) (a lake at rest is steady, not "nothing moves yet"); the depth
  // relative to the largest depth, so a free surface still settling is not steady.
  const LbmSweConfig& c = *s.config;
  out.groups.resize(2);
  SteadySample::Group& vel = out.groups[0];
  SteadySample::Group& depth = out.groups[1];
  vel.name = "velocity";
  depth.name = "depth";
  vel.values.resize(2 * s.h.size());
  depth.values.assign(s.h.begin(), s.h.end());
  double umax = 0, hmax = 0;
  for (std::size_t k = 0; k < s.h.size(); ++k) {
    vel.values[2 * k] = s.u[k];
    vel.values[2 * k + 1] = s.v[k];
    umax = std::max({umax, std::abs(s.u[k]), std::abs(s.v[k])});
    hmax = std::max(hmax, s.h[k]);
  }
  vel.scale = umax > 0 ? umax : std::sqrt(c.gravity * hmax);
  depth.scale = hmax;
}

}  // namespace flowlua::lbm_swe
