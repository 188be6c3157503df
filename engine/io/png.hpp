// Field images: one colour per cell, y up, nearest-neighbour upscaled, PNG encoded.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "core/snapshot.hpp"
#include "io/colormap.hpp"

namespace flowlua::io {

struct PngOptions {
  Colormap colormap = Colormap::Viridis;
  bool auto_range = true;   // use the min/max over finite fluid cells
  double lo = 0, hi = 1;    // fixed range when auto_range is false; lo > hi reverses the map
  int scale = 0;            // pixels per cell; 0 = automatic (largest integer such that the
                            // longer side is <= 1024 px, at least 1)
  std::array<std::uint8_t, 3> solid_rgb = {96, 96, 96};  // obstacle cells: a neutral grey
};

// Image row 0 is the top of the domain (j = ny), column 0 is i = 1. Values map to
// t = (v - lo) / (hi - lo), clamped; lo == hi maps everything to t = 0.5; non-finite
// values get colormap_nan_rgb; obstacle cells get solid_rgb whatever their value.
// Throws flowlua::CaseError for bad options (negative scale, non-finite range, image
// too large) and std::runtime_error when the file cannot be written; messages name
// the file (write_png) or the field (encode_png).
void write_png(const std::string& path, const FieldSnapshot& field, const PngOptions& opts);
std::string encode_png(const FieldSnapshot& field, const PngOptions& opts);  // the PNG bytes

// The scale encode_png uses for `opts.scale` on an nx x ny field.
int png_scale(int nx, int ny, int requested);

}  // namespace flowlua::io
