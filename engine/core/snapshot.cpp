#include "core/snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flowlua {

double FieldSnapshot::sample(double x, double y) const {
  // Continuous cell index: centre of cell i sits at s = i.
  double s = x / grid.dx + 0.5, t = y / grid.dy + 0.5;
  s = std::clamp(s, 1.0, double(grid.nx));
  t = std::clamp(t, 1.0, double(grid.ny));
  int i = std::min(int(s), std::max(grid.nx - 1, 1));
  int j = std::min(int(t), std::max(grid.ny - 1, 1));
  int i1 = std::min(i + 1, grid.nx), j1 = std::min(j + 1, grid.ny);
  double a = s - i, b = t - j;
  return (1 - a) * (1 - b) * get(i, j) + a * (1 - b) * get(i1, j) + (1 - a) * b * get(i, j1) +
         a * b * get(i1, j1);
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
