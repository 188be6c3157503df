// An annotated field picture: the field image on a white margin with a label (the
// field's name or a title, the time and the step) above it and a colour bar beside it
// (the colormap from the range's low end at the bottom to its high end at the top,
// with the low, middle and high values written beside it and the isoline levels
// marked on it). Text through io/text.hpp.
#pragma once
#include <vector>

#include "core/snapshot.hpp"
#include "io/png.hpp"
#include "io/raster.hpp"

namespace flowlua::io {

// `field_img` is the field with its overlays; `levels` the isoline levels drawn (marked
// on the bar); lo, hi the colour range. Fills every member of `layout`.
Raster annotate_picture(const Raster& field_img, const FieldSnapshot& field, const PngOptions& opts,
                        const std::vector<double>& levels, double lo, double hi, PictureLayout& layout);

// The label's text: "vorticity   t = 12.5   step 1200".
std::string picture_label(const FieldSnapshot& field, const PngOptions& opts);

}  // namespace flowlua::io
