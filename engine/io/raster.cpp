#include "io/raster.hpp"

#include <cmath>

namespace flowlua::io {

void Raster::line(double x0, double y0, double x1, double y1, Rgb c, double alpha) {
  const double dx = x1 - x0, dy = y1 - y0;
  const bool steep = std::abs(dy) > std::abs(dx);
  if (steep) {
    std::swap(x0, y0);
    std::swap(x1, y1);
  }
  if (x0 > x1) {
    std::swap(x0, x1);
    std::swap(y0, y1);
  }
  const double run = x1 - x0;
  const double slope = run > 1e-12 ? (y1 - y0) / run : 0.0;
  // Pixel centres sit at integer + 0.5 in these coordinates.
  const int first = int(std::floor(x0)), last = int(std::floor(x1));
  for (int x = first; x <= last; ++x) {
    // Horizontal coverage of this pixel column by the segment.
    const double lo = std::max(x0, double(x)), hi = std::min(x1, double(x + 1));
    const double cover = run > 1e-12 ? std::max(0.0, hi - lo) : 1.0;
    const double y = y0 + slope * ((lo + hi) / 2 - x0) - 0.5;
    const int yi = int(std::floor(y));
    const double f = y - yi;
    const double a0 = alpha * cover * (1 - f), a1 = alpha * cover * f;
    if (steep) {
      blend(yi, x, c, a0);
      blend(yi + 1, x, c, a1);
    } else {
      blend(x, yi, c, a0);
      blend(x, yi + 1, c, a1);
    }
  }
}

}  // namespace flowlua::io
