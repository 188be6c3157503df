#include "models/fractional_step/fs_fields3.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace flowlua::fractional_step {

namespace {

// Cell index c of axis a shifted by s: wrapped on periodic axes, clamped to the
// interior otherwise (one-sided differences at walls).
int shifted(const HostState3& s, int a, int c, int sh) {
  const int n = a == 0 ? s.grid.nx : a == 1 ? s.grid.ny : s.grid.nz;
  int i = c + sh;
  if (s.periodic[a]) return i < 1 ? i + n : (i > n ? i - n : i);
  return i < 1 ? 1 : (i > n ? n : i);
}

// Component a at the centre of cell (i, j, k): the mean of its two faces. The "-"
// face of the first cell of a periodic axis is the last face; of a wall axis the
// wall face in the ghost layer.
double centre(const HostState3& s, int a, int i, int j, int k) {
  const Grid3& g = s.grid;
  int x[3] = {i, j, k};
  const double up = s.vel[a][g.at(x[0], x[1], x[2])];
  x[a] = s.periodic[a] && x[a] == 1 ? (a == 0 ? g.nx : a == 1 ? g.ny : g.nz) : x[a] - 1;
  return 0.5 * (up + s.vel[a][g.at(x[0], x[1], x[2])]);
}

// d(component a)/d(axis b) at the centre of (i, j, k) from the neighbouring centres.
double gradient(const HostState3& s, int a, int b, int i, int j, int k) {
  int lo[3] = {i, j, k}, hi[3] = {i, j, k};
  const int c = b == 0 ? i : b == 1 ? j : k;
  lo[b] = shifted(s, b, c, -1);
  hi[b] = shifted(s, b, c, 1);
  const double h = b == 0 ? s.grid.dx : b == 1 ? s.grid.dy : s.grid.dz;
  int span = hi[b] - lo[b];
  if (s.periodic[b]) span = 2;
  if (span == 0) return 0;
  return (centre(s, a, hi[0], hi[1], hi[2]) - centre(s, a, lo[0], lo[1], lo[2])) / (span * h);
}

}  // namespace

const std::vector<std::string>& field_names3() {
  static const std::vector<std::string> n = {"u", "v", "w", "p", "speed", "vorticity",
                                             "vorticity_x", "vorticity_y", "vorticity_z", "divergence"};
  return n;
}

FieldSnapshot3 derived_field3(const HostState3& s, const std::string& name) {
  const auto& names = field_names3();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw CaseError("no field '" + name + "' in the 3D fractional_step model (fields: " + list + ")");
  }
  const Grid3& g = s.grid;
  FieldSnapshot3 f;
  f.name = name;
  f.grid = g;
  f.values.assign(std::size_t(g.cells()), 0.0);
  f.writable = name == "p";
  auto fluid = [&](int i, int j, int k) { return !s.flags || is_fluid((*s.flags)[g.at(i, j, k)]); };
  if (s.flags) {
    f.solid.assign(std::size_t(g.cells()), 0);
    for (int k = 1; k <= g.nz; ++k)
      for (int j = 1; j <= g.ny; ++j)
        for (int i = 1; i <= g.nx; ++i) f.solid[f.index(i, j, k)] = fluid(i, j, k) ? 0 : 1;
  }
  double pmean = 0;
  if (name == "p" && s.singular) {
    long count = 0;
    for (int k = 1; k <= g.nz; ++k)
      for (int j = 1; j <= g.ny; ++j)
        for (int i = 1; i <= g.nx; ++i)
          if (fluid(i, j, k)) {
            pmean += s.p[g.at(i, j, k)];
            ++count;
          }
    pmean /= double(count > 0 ? count : 1);
  }
  for (int k = 1; k <= g.nz; ++k)
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i) {
        double v = 0;
        if (name == "u" || name == "v" || name == "w") {
          v = centre(s, name == "u" ? 0 : name == "v" ? 1 : 2, i, j, k);
        } else if (name == "p") {
          v = fluid(i, j, k) ? (s.p[g.at(i, j, k)] - pmean) * s.rho : 0.0;
        } else if (name == "speed") {
          const double a = centre(s, 0, i, j, k), b = centre(s, 1, i, j, k), c = centre(s, 2, i, j, k);
          v = std::sqrt(a * a + b * b + c * c);
        } else if (name == "divergence") {
          const double h[3] = {g.dx, g.dy, g.dz};
          for (int a = 0; a < 3; ++a) {
            int x[3] = {i, j, k};
            const double up = s.vel[a][g.at(i, j, k)];
            x[a] = s.periodic[a] && x[a] == 1 ? (a == 0 ? g.nx : a == 1 ? g.ny : g.nz) : x[a] - 1;
            v += (up - s.vel[a][g.at(x[0], x[1], x[2])]) / h[a];
          }
        } else {
          const double wx = gradient(s, 2, 1, i, j, k) - gradient(s, 1, 2, i, j, k);
          const double wy = gradient(s, 0, 2, i, j, k) - gradient(s, 2, 0, i, j, k);
          const double wz = gradient(s, 1, 0, i, j, k) - gradient(s, 0, 1, i, j, k);
          v = name == "vorticity_x" ? wx : name == "vorticity_y" ? wy : name == "vorticity_z" ? wz
                                                                   : std::sqrt(wx * wx + wy * wy + wz * wz);
        }
        f.set(i, j, k, v);
      }
  return f;
}

}  // namespace flowlua::fractional_step
