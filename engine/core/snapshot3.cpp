#include "core/snapshot3.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace flowlua {

namespace {

// The lower layer index (1-based) and weight of the upper one for coordinate c on
// an axis of n cells of size h (centre of cell i at c = (i - 0.5) h).
void bracket(double c, int n, double h, int& lo, int& hi, double& w) {
  double s = std::clamp(c / h + 0.5, 1.0, double(n));
  lo = std::min(int(s), std::max(n - 1, 1));
  hi = std::min(lo + 1, n);
  w = s - lo;
}

template <class F>
void for_fluid(const FieldSnapshot3& f, F fn) {
  for (int k = 1; k <= f.nz(); ++k)
    for (int j = 1; j <= f.ny(); ++j)
      for (int i = 1; i <= f.nx(); ++i)
        if (!f.is_solid(i, j, k)) fn(f.get(i, j, k));
}

}  // namespace

double FieldSnapshot3::sample(double x, double y, double z) const {
  int i0, i1, j0, j1, k0, k1;
  double a, b, c;
  bracket(x, grid.nx, grid.dx, i0, i1, a);
  bracket(y, grid.ny, grid.dy, j0, j1, b);
  bracket(z, grid.nz, grid.dz, k0, k1, c);
  auto plane = [&](int k) {
    return (1 - a) * (1 - b) * get(i0, j0, k) + a * (1 - b) * get(i1, j0, k) + (1 - a) * b * get(i0, j1, k) +
           a * b * get(i1, j1, k);
  };
  return (1 - c) * plane(k0) + c * plane(k1);
}

double FieldSnapshot3::min() const {
  double m = std::numeric_limits<double>::infinity();
  for_fluid(*this, [&](double v) { m = std::min(m, v); });
  return m;
}
double FieldSnapshot3::max() const {
  double m = -std::numeric_limits<double>::infinity();
  for_fluid(*this, [&](double v) { m = std::max(m, v); });
  return m;
}
double FieldSnapshot3::mean() const {
  double s = 0;
  long n = 0;
  for_fluid(*this, [&](double v) { s += v; ++n; });
  return n ? s / n : 0.0;
}
double FieldSnapshot3::norm() const {
  double s = 0;
  long n = 0;
  for_fluid(*this, [&](double v) { s += v * v; ++n; });
  return n ? std::sqrt(s / n) : 0.0;
}

FieldSnapshot FieldSnapshot3::slice(int axis, double c) const {
  static const char* names = "xyz";
  const int n[3] = {grid.nx, grid.ny, grid.nz};
  const double len[3] = {grid.lx, grid.ly, grid.lz}, h[3] = {grid.dx, grid.dy, grid.dz};
  if (axis < 0 || axis > 2) throw CaseError("slice: the axis must be x, y or z");
  if (!(c >= 0 && c <= len[axis]))
    throw CaseError(name + ":slice: " + names[axis] + " = " + std::to_string(c) + " is outside the domain [0, " +
                    std::to_string(len[axis]) + "]");
  int lo, hi;
  double w;
  bracket(c, n[axis], h[axis], lo, hi, w);
  const int near = w < 0.5 ? lo : hi;
  const int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;  // the slice's two axes
  FieldSnapshot out;
  out.name = name;
  out.grid = Grid::make(n[a], n[b], len[a], len[b]);
  out.writable = false;
  out.values.resize(std::size_t(n[a]) * n[b]);
  if (!solid.empty()) out.solid.resize(out.values.size());
  for (int q = 1; q <= n[b]; ++q)
    for (int p = 1; p <= n[a]; ++p) {
      int at_lo[3], at_hi[3];
      at_lo[axis] = lo;
      at_hi[axis] = hi;
      at_lo[a] = at_hi[a] = p;
      at_lo[b] = at_hi[b] = q;
      const double v0 = get(at_lo[0], at_lo[1], at_lo[2]), v1 = get(at_hi[0], at_hi[1], at_hi[2]);
      out.set(p, q, (1 - w) * v0 + w * v1);
      if (!solid.empty()) {
        const int* at = near == lo ? at_lo : at_hi;
        out.solid[out.index(p, q)] = solid[index(at[0], at[1], at[2])];
      }
    }
  return out;
}

}  // namespace flowlua
