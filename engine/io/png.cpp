#include "io/png.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"
#include "io/files.hpp"
#include "io/overlays.hpp"
#include "io/picture.hpp"
#include "io/raster.hpp"

// The writer is compiled here only, with internal linkage so that no other
// translation unit's copy of stb can clash with it at link time.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace flowlua::io {

namespace {

constexpr int kAutoLongSide = 1024;  // automatic scale keeps the longer side within this
constexpr long kMaxSide = 32768;     // beyond these the image is a mistake, not a picture
constexpr long kMaxPixels = 1L << 27;
constexpr Rgb kOverlayInk = {20, 20, 20};  // isolines, arrows, obstacle outlines

void append_bytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
}

// `label` names what is being written in error messages: the file, or the field.
std::string encode(const FieldSnapshot& field, const PngOptions& opts, const std::string& label,
                   PictureLayout* layout) {
  const int nx = field.nx(), ny = field.ny();
  if (nx <= 0 || ny <= 0)
    throw CaseError(label + ": field has no cells (" + std::to_string(nx) + " x " +
                    std::to_string(ny) + ")");
  const std::size_t cells = std::size_t(nx) * std::size_t(ny);
  if (field.values.size() != cells || (!field.solid.empty() && field.solid.size() != cells))
    throw std::logic_error(label + ": snapshot arrays do not match its " + std::to_string(nx) +
                           " x " + std::to_string(ny) + " grid");
  if (opts.contours < 0)
    throw CaseError(label + ": contours must be >= 0, got " + std::to_string(opts.contours));
  for (double l : opts.levels)
    if (!std::isfinite(l)) throw CaseError(label + ": contour levels must be finite numbers");
  if (opts.scale < 0)
    throw CaseError(label + ": scale must be >= 0 (0 = automatic), got " +
                    std::to_string(opts.scale));

  const int scale = png_scale(nx, ny, opts.scale);
  const long width = long(nx) * scale, height = long(ny) * scale;
  if (width > kMaxSide || height > kMaxSide || width * height > kMaxPixels)
    throw CaseError(label + ": image would be " + std::to_string(width) + " x " +
                    std::to_string(height) + " pixels; lower the scale");

  double lo = opts.lo, hi = opts.hi;
  if (opts.auto_range) {
    // Over finite fluid values only: obstacles and NaNs must not stretch the range.
    lo = INFINITY;
    hi = -INFINITY;
    for (int j = 1; j <= ny; ++j)
      for (int i = 1; i <= nx; ++i) {
        double v = field.get(i, j);
        if (field.is_solid(i, j) || !std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    if (lo > hi) lo = hi = 0;  // nothing finite to show
  } else if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw CaseError(label + ": colour range must be finite");
  }
  const double span = hi - lo;  // may be negative (reversed map); zero handled below

  // One image row per cell row, then repeated `scale` times.
  Raster img(int(width), int(height), opts.solid_rgb);
  const std::size_t row_bytes = std::size_t(width) * 3;
  for (int j = ny; j >= 1; --j) {
    std::uint8_t* row = img.px.data() + std::size_t(ny - j) * scale * row_bytes;
    for (int i = 1; i <= nx; ++i) {
      std::array<std::uint8_t, 3> rgb;
      double v = field.get(i, j);
      if (field.is_solid(i, j))
        rgb = opts.solid_rgb;
      else if (!std::isfinite(v))
        rgb = colormap_nan_rgb;
      else
        rgb = colormap_rgb(opts.colormap, span == 0 ? 0.5 : (v - lo) / span);
      std::uint8_t* px = row + std::size_t(i - 1) * scale * 3;
      for (int s = 0; s < scale; ++s, px += 3) std::copy(rgb.begin(), rgb.end(), px);
    }
    for (int s = 1; s < scale; ++s) std::copy(row, row + row_bytes, row + s * row_bytes);
  }

  // Overlays on the field, then (annotate) the margin with label and colour bar.
  const FieldPlacement at{0, 0, scale};
  std::vector<double> levels = opts.levels;
  if (levels.empty() && opts.contours > 0 && span != 0) levels = even_levels(lo, hi, opts.contours);
  if (!levels.empty()) draw_isolines(img, at, field, levels, kOverlayInk);
  if (opts.arrows > 0) {
    if (!opts.arrow_u || !opts.arrow_v || opts.arrow_u->nx() != nx || opts.arrow_u->ny() != ny ||
        opts.arrow_v->nx() != nx || opts.arrow_v->ny() != ny)
      throw std::logic_error(label + ": arrows need u and v snapshots on the field's grid");
    draw_arrows(img, at, *opts.arrow_u, *opts.arrow_v, opts.arrows, kOverlayInk, {255, 255, 255});
  }
  PictureLayout where;
  where.width = img.w;
  where.height = img.h;
  where.field_w = img.w;
  where.field_h = img.h;
  where.lo = lo;
  where.hi = hi;
  if (opts.annotate) {
    draw_solid_outline(img, at, field, kOverlayInk);
    img = annotate_picture(img, field, opts, levels, lo, hi, where);
  }
  if (layout) *layout = where;
  const std::uint8_t* pixels = img.px.data();
  const int out_w = img.w, out_h = img.h;
  std::string png;
  if (!stbi_write_png_to_func(append_bytes, &png, out_w, out_h, 3, pixels, out_w * 3))
    throw std::runtime_error(label + ": PNG encoding failed");
  return png;
}

}  // namespace

int png_scale(int nx, int ny, int requested) {
  if (requested > 0) return requested;
  int longer = std::max(std::max(nx, ny), 1);
  return std::max(1, kAutoLongSide / longer);
}

std::string encode_png(const FieldSnapshot& field, const PngOptions& opts, PictureLayout* layout) {
  return encode(field, opts, "image of field '" + field.name + "'", layout);
}

void write_png(const std::string& path, const FieldSnapshot& field, const PngOptions& opts) {
  std::string bytes = encode(field, opts, "cannot write '" + path + "'", nullptr);
  make_parent_dirs(path);
  write_file_atomic(path, bytes);
}

}  // namespace flowlua::io
