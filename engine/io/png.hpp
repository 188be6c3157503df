// Field images: one colour per cell, y up, nearest-neighbour upscaled, PNG encoded.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

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

  // Annotations (io/picture.hpp). Off here, on by default in flow.png: a white margin
  // with a label (title, t, step), a colour bar with its range, obstacle outlines.
  bool annotate = false;
  std::string title;               // the label's first word; the field's name when empty
  double time = NAN;               // shown in the label when finite
  long step = -1;                  // shown in the label when >= 0
  // Overlays, drawn with or without annotate: isolines at `levels`, or at `contours`
  // evenly spaced levels inside the colour range; velocity arrows (about `arrows`
  // along the longer side) from arrow_u and arrow_v, which must then be set and share
  // the field's grid.
  int contours = 0;
  std::vector<double> levels;
  int arrows = 0;
  const FieldSnapshot* arrow_u = nullptr;
  const FieldSnapshot* arrow_v = nullptr;
};

// Where the parts of an annotated picture are, in pixels (x right, y down); for tests.
struct PictureLayout {
  int width = 0, height = 0;
  int field_x = 0, field_y = 0, field_w = 0, field_h = 0;
  int bar_x = 0, bar_y = 0, bar_w = 0, bar_h = 0;      // 0 size: no colour bar
  int label_x = 0, label_y = 0, label_w = 0, label_h = 0;
  double lo = 0, hi = 0;                               // the colour range used
};

// Image row 0 is the top of the domain (j = ny), column 0 is i = 1. Values map to
// t = (v - lo) / (hi - lo), clamped; lo == hi maps everything to t = 0.5; non-finite
// values get colormap_nan_rgb; obstacle cells get solid_rgb whatever their value.
// Throws flowlua::CaseError for bad options (negative scale, non-finite range, image
// too large) and std::runtime_error when the file cannot be written; messages name
// the file (write_png) or the field (encode_png).
void write_png(const std::string& path, const FieldSnapshot& field, const PngOptions& opts);
// The PNG bytes; `layout` (optional) receives where the parts went.
std::string encode_png(const FieldSnapshot& field, const PngOptions& opts, PictureLayout* layout = nullptr);

// The scale encode_png uses for `opts.scale` on an nx x ny field.
int png_scale(int nx, int ny, int requested);

}  // namespace flowlua::io
