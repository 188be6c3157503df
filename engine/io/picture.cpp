#include "io/picture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/colormap.hpp"
#include "io/text.hpp"

namespace flowlua::io {

namespace {

constexpr Rgb kPaper = {255, 255, 255};
constexpr Rgb kInk = {20, 20, 20};
constexpr Rgb kFrame = {120, 120, 120};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v == 0 ? 0.0 : v);  // no "-0"
  return buf;
}

void frame(Raster& r, int x, int y, int w, int h, Rgb c) {
  r.fill_rect(x - 1, y - 1, x + w + 1, y, c);
  r.fill_rect(x - 1, y + h, x + w + 1, y + h + 1, c);
  r.fill_rect(x - 1, y, x, y + h, c);
  r.fill_rect(x + w, y, x + w + 1, y + h, c);
}

}  // namespace

std::string picture_label(const FieldSnapshot& field, const PngOptions& opts) {
  std::string label = opts.title.empty() ? field.name : opts.title;
  if (std::isfinite(opts.time)) label += "   t = " + num(opts.time);
  if (opts.step >= 0) label += "   step " + std::to_string(opts.step);
  return label;
}

Raster annotate_picture(const Raster& field_img, const FieldSnapshot& field, const PngOptions& opts,
                        const std::vector<double>& levels, double lo, double hi, PictureLayout& L) {
  const int W = field_img.w, H = field_img.h;
  // Text scaled with the picture, within what stays readable and modest.
  const TextRenderer text(std::clamp(std::max(W, H) / 42, 12, 24));
  const int lh = text.line_height();
  const int m = std::max(8, lh);

  const std::string label = picture_label(field, opts);
  const std::string ticks[3] = {num(hi), num(0.5 * (lo + hi)), num(lo)};
  int tick_w = 0;
  for (const auto& t : ticks) tick_w = std::max(tick_w, text.width(t));

  L.label_x = m;
  L.label_y = m / 2;
  L.label_w = text.width(label);
  L.label_h = lh;
  L.field_x = m;
  L.field_y = L.label_y + lh + m / 2;
  L.field_w = W;
  L.field_h = H;
  L.bar_w = std::max(12, lh);
  L.bar_h = std::max(H, 5 * lh);
  L.bar_x = L.field_x + W + m;
  L.bar_y = L.field_y;
  const int tick_x = L.bar_x + L.bar_w + std::max(4, lh / 3);
  L.width = std::max(tick_x + tick_w + m, L.label_x + L.label_w + m);
  L.height = L.field_y + std::max(H, L.bar_h) + m;
  L.lo = lo;
  L.hi = hi;

  Raster out(L.width, L.height, kPaper);
  out.paste(field_img, L.field_x, L.field_y);
  frame(out, L.field_x, L.field_y, W, H, kFrame);

  // The bar: high end at the top.
  for (int y = 0; y < L.bar_h; ++y) {
    const Rgb c = colormap_rgb(opts.colormap, 1.0 - (y + 0.5) / L.bar_h);
    out.fill_rect(L.bar_x, L.bar_y + y, L.bar_x + L.bar_w, L.bar_y + y + 1, c);
  }
  frame(out, L.bar_x, L.bar_y, L.bar_w, L.bar_h, kFrame);
  if (hi != lo)
    for (double level : levels) {
      const double t = (level - lo) / (hi - lo);
      if (t < 0 || t > 1) continue;
      const int y = L.bar_y + int(std::lround((1 - t) * (L.bar_h - 1)));
      out.fill_rect(L.bar_x, y, L.bar_x + L.bar_w, y + 1, kInk);
    }
  text.draw(out, tick_x, L.bar_y, ticks[0], kInk);
  text.draw(out, tick_x, L.bar_y + L.bar_h / 2 - lh / 2, ticks[1], kInk);
  text.draw(out, tick_x, L.bar_y + L.bar_h - lh, ticks[2], kInk);
  text.draw(out, L.label_x, L.label_y, label, kInk);
  return out;
}

}  // namespace flowlua::io
