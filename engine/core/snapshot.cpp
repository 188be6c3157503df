#include "core/snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flowlua {

double FieldSnapshot::boundary_value(Side side, int k) const {
  const auto& e = edge[int(side)];
  if (!e.empty()) return e[std::size_t(k - 1)];
  switch (side) {
    case Side::Left: return get(1, k);
    case Side::Right: return get(grid.nx, k);
    case Side::Bottom: return get(k, 1);
    case Side::Top: return get(k, grid.ny);
  }
  return 0;
}

namespace {

// Interpolation nodes along one axis of n cells, in units of the cell size: the
// boundary at 0.5, centres at 1 .. n, the boundary at n + 0.5. Returns the node k
// (0 .. n) with node(k) <= s <= node(k + 1) and the weight of node k + 1.
void bracket(double s, int n, int& k, double& w) {
  s = std::clamp(s, 0.5, n + 0.5);
  k = s < 1 ? 0 : std::min(int(s), n);
  const double lo = k == 0 ? 0.5 : k, hi = k == n ? n + 0.5 : k + 1;
  w = (s - lo) / (hi - lo);
}

}  // namespace

double FieldSnapshot::lattice(int i, int j) const {
  const int nx = grid.nx, ny = grid.ny;
  const bool bi = i == 0 || i == nx + 1, bj = j == 0 || j == ny + 1;
  if (bi && bj) {  // a corner: the mean of its two sides
    const Side sx = i == 0 ? Side::Left : Side::Right, sy = j == 0 ? Side::Bottom : Side::Top;
    return 0.5 * (boundary_value(sx, j == 0 ? 1 : ny) + boundary_value(sy, i == 0 ? 1 : nx));
  }
  if (bi) return boundary_value(i == 0 ? Side::Left : Side::Right, j);
  if (bj) return boundary_value(j == 0 ? Side::Bottom : Side::Top, i);
  return get(i, j);
}

double FieldSnapshot::sample(double x, double y) const {
  int i = 0, j = 0;
  double a = 0, b = 0;
  bracket(x / grid.dx + 0.5, grid.nx, i, a);
  bracket(y / grid.dy + 0.5, grid.ny, j, b);
  return (1 - a) * (1 - b) * lattice(i, j) + a * (1 - b) * lattice(i + 1, j) + (1 - a) * b * lattice(i, j + 1) +
         a * b * lattice(i + 1, j + 1);
}

template <class F>
static void for_fluid(const FieldSnapshot& f, F fn) {
  for (int j = 1; j <= f.ny(); ++j)
    for (int i = 1; i <= f.nx(); ++i)
      if (!f.is_solid(i, j)) fn(f.get(i, j));
}

double FieldSnapshot::min() const {
  double m = std::numeric_limits<double>::infinity();
  for_fluid(*this, [&](double v) { m = std::min(m, v); });
  return m;
}
double FieldSnapshot::max() const {
  double m = -std::numeric_limits<double>::infinity();
  for_fluid(*this, [&](double v) { m = std::max(m, v); });
  return m;
}
double FieldSnapshot::mean() const {
  double s = 0; long n = 0;
  for_fluid(*this, [&](double v) { s += v; ++n; });
  return n ? s / n : 0.0;
}
double FieldSnapshot::norm() const {
  double s = 0; long n = 0;
  for_fluid(*this, [&](double v) { s += v * v; ++n; });
  return n ? std::sqrt(s / n) : 0.0;
}

}  // namespace flowlua
