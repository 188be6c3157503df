// An RGB image in memory that pictures are drawn on: pixels, blending, lines.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace flowlua::io {

using Rgb = std::array<std::uint8_t, 3>;

struct Raster {
  int w = 0, h = 0;
  std::vector<std::uint8_t> px;  // w * h * 3, row 0 at the top

  Raster() = default;
  Raster(int width, int height, Rgb fill) : w(width), h(height), px(std::size_t(width) * height * 3) {
    for (std::size_t k = 0; k < px.size(); k += 3) std::copy(fill.begin(), fill.end(), px.begin() + k);
  }
  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < w && y < h; }
  Rgb at(int x, int y) const {
    const std::size_t k = (std::size_t(y) * w + x) * 3;
    return {px[k], px[k + 1], px[k + 2]};
  }
  void set(int x, int y, Rgb c) {
    if (!inside(x, y)) return;
    const std::size_t k = (std::size_t(y) * w + x) * 3;
    px[k] = c[0]; px[k + 1] = c[1]; px[k + 2] = c[2];
  }
  // Mixes colour c over the pixel with coverage a in [0, 1].
  void blend(int x, int y, Rgb c, double a) {
    if (!inside(x, y) || a <= 0) return;
    a = std::min(a, 1.0);
    const std::size_t k = (std::size_t(y) * w + x) * 3;
    for (int q = 0; q < 3; ++q) px[k + q] = std::uint8_t(px[k + q] + (c[q] - px[k + q]) * a + 0.5);
  }
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c) {  // [x0, x1) x [y0, y1)
    for (int y = std::max(y0, 0); y < std::min(y1, h); ++y)
      for (int x = std::max(x0, 0); x < std::min(x1, w); ++x) set(x, y, c);
  }
  // Copies `src` with its top-left corner at (x0, y0).
  void paste(const Raster& src, int x0, int y0) {
    for (int y = 0; y < src.h; ++y)
      for (int x = 0; x < src.w; ++x) set(x0 + x, y0 + y, src.at(x, y));
  }
  // An anti-aliased line of about one pixel width between pixel-space points (Wu's
  // idea: coverage by distance from the ideal line, sampled along the major axis).
  void line(double x0, double y0, double x1, double y1, Rgb c, double alpha = 1.0);
};

}  // namespace flowlua::io
