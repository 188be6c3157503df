// Annotated pictures (io/picture.hpp, io/overlays.hpp): decoded back with stb_image and
// checked where the parts should be: the colour bar follows the colormap, the label
// and the bar's numbers are drawn, the field itself is unchanged, isolines, arrows and
// obstacle outlines appear where they belong.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "io/colormap.hpp"
#include "io/overlays.hpp"
#include "io/picture.hpp"
#include "io/png.hpp"
#include "io/text.hpp"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_image.h>
#pragma GCC diagnostic pop

using namespace flowlua;
using namespace flowlua::io;

namespace {

Raster decode(const std::string& png) {
  int w = 0, h = 0, comp = 0;
  unsigned char* data =
      stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()), int(png.size()), &w, &h, &comp, 3);
  if (!data) throw std::runtime_error(std::string("stb_image: ") + stbi_failure_reason());
  Raster r;
  r.w = w;
  r.h = h;
  r.px.assign(data, data + std::size_t(w) * h * 3);
  stbi_image_free(data);
  return r;
}

// value = i (a ramp in x) on nx x ny cells.
FieldSnapshot ramp(int nx, int ny) {
  FieldSnapshot f;
  f.name = "vorticity";
  f.grid = Grid::make(nx, ny, 2.0, 1.0);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) f.values.push_back(i);
  return f;
}

bool dark(Rgb c) { return c[0] + c[1] + c[2] < 200; }

int dark_pixels(const Raster& r, int x0, int y0, int w, int h) {
  int n = 0;
  for (int y = y0; y < y0 + h; ++y)
    for (int x = x0; x < x0 + w; ++x) n += r.inside(x, y) && dark(r.at(x, y));
  return n;
}

}  // namespace

TEST(Picture, FieldIsUnchangedInsideTheAnnotatedPicture) {
  FieldSnapshot f = ramp(20, 10);
  PngOptions plain;
  plain.scale = 4;
  PngOptions ann = plain;
  ann.annotate = true;
  PictureLayout L;
  Raster a = decode(encode_png(f, plain)), b = decode(encode_png(f, ann, &L));
  ASSERT_EQ(a.w, 80);
  ASSERT_EQ(a.h, 40);
  EXPECT_EQ(L.field_w, 80);
  EXPECT_EQ(L.field_h, 40);
  EXPECT_GT(b.w, a.w);
  EXPECT_GT(b.h, a.h);
  for (int y = 0; y < a.h; ++y)
    for (int x = 0; x < a.w; ++x) ASSERT_EQ(a.at(x, y), b.at(L.field_x + x, L.field_y + y)) << x << ", " << y;
}

TEST(Picture, ColourBarFollowsTheColormapFromLowToHigh) {
  FieldSnapshot f = ramp(30, 12);
  for (Colormap map : {Colormap::Viridis, Colormap::Coolwarm, Colormap::Gray}) {
    PngOptions o;
    o.annotate = true;
    o.colormap = map;
    PictureLayout L;
    Raster r = decode(encode_png(f, o, &L));
    ASSERT_GT(L.bar_h, 20);
    ASSERT_GT(L.bar_w, 4);
    EXPECT_EQ(L.lo, 1);
    EXPECT_EQ(L.hi, 30);
    for (int y = 0; y < L.bar_h; ++y)
      for (int x : {L.bar_x, L.bar_x + L.bar_w / 2, L.bar_x + L.bar_w - 1})
        ASSERT_EQ(r.at(x, L.bar_y + y), colormap_rgb(map, 1.0 - (y + 0.5) / L.bar_h)) << colormap_name(map) << " row " << y;
  }
}

TEST(Picture, LabelAndBarNumbersAreDrawn) {
  FieldSnapshot f = ramp(30, 12);
  PngOptions o;
  o.annotate = true;
  o.time = 1.5;
  o.step = 30;
  EXPECT_EQ(picture_label(f, o), "vorticity   t = 1.5   step 30");
  PictureLayout L;
  Raster r = decode(encode_png(f, o, &L));
  const int label_ink = dark_pixels(r, L.label_x, L.label_y, L.label_w, L.label_h);
  EXPECT_GT(label_ink, 50) << "label region is empty";
  // The numbers beside the bar (right of it, over its height).
  EXPECT_GT(dark_pixels(r, L.bar_x + L.bar_w + 1, L.bar_y, r.w - L.bar_x - L.bar_w - 1, L.bar_h), 30);
  // The text is drawn from the string: a shorter title leaves less ink.
  o.title = "T";
  o.time = NAN;
  o.step = -1;
  PictureLayout L2;
  Raster r2 = decode(encode_png(f, o, &L2));
  EXPECT_LT(dark_pixels(r2, L2.label_x, L2.label_y, L2.label_w, L2.label_h), label_ink / 4);
  EXPECT_GT(dark_pixels(r2, L2.label_x, L2.label_y, L2.label_w, L2.label_h), 0);
}

TEST(Picture, TextRendererDrawsInsideItsBox) {
  TextRenderer text(16);
  Raster r(200, 40, {255, 255, 255});
  const int w = text.width("t = 12.5");
  EXPECT_GT(w, 20);
  text.draw(r, 10, 5, "t = 12.5", {0, 0, 0});
  EXPECT_GT(dark_pixels(r, 10, 5, w + 1, text.line_height()), 10) << text.describe();
  EXPECT_EQ(dark_pixels(r, 10 + w + 3, 0, 200 - w - 13, 40), 0) << "ink right of the text's width";
}

TEST(Picture, IsolineOfAMidLevelLiesBetweenTheCellsItSeparates) {
  FieldSnapshot f = ramp(20, 10);  // values 1 .. 20 along x; level 10.5 between i = 10 and 11
  PngOptions o;
  o.scale = 6;
  o.levels = {10.5};
  Raster with = decode(encode_png(f, o));
  o.levels.clear();
  Raster without = decode(encode_png(f, o));
  const int x_line = 10 * 6;  // the boundary between cells 10 and 11 is at pixel 60
  int changed_near = 0, changed_far = 0;
  for (int y = 0; y < with.h; ++y)
    for (int x = 0; x < with.w; ++x) {
      if (with.at(x, y) == without.at(x, y)) continue;
      (std::abs(x - x_line) <= 1 ? changed_near : changed_far)++;
    }
  EXPECT_GT(changed_near, 40);  // along most of the height
  EXPECT_EQ(changed_far, 0);
  // contours = N: N evenly spaced levels strictly inside the range.
  EXPECT_EQ(even_levels(0, 1, 3), (std::vector<double>{0.25, 0.5, 0.75}));
}

TEST(Picture, IsolinesReachTheSidesThroughTheBoundaryValues) {
  // Values 1 .. 20 inside and 0 on the left side (a wall): level 0.5 lies in the half
  // cell between the side and the first centres, and only there.
  FieldSnapshot f = ramp(20, 10);
  f.edge[int(Side::Left)].assign(10, 0.0);
  PngOptions o;
  o.scale = 6;
  o.levels = {0.5};
  Raster with = decode(encode_png(f, o));
  o.levels.clear();
  Raster without = decode(encode_png(f, o));
  int inside_half_cell = 0, elsewhere = 0;
  for (int y = 0; y < with.h; ++y)
    for (int x = 0; x < with.w; ++x)
      if (with.at(x, y) != without.at(x, y)) (x <= 3 ? inside_half_cell : elsewhere)++;
  EXPECT_GT(inside_half_cell, 50);  // about one pixel column at x = 1.5 over the 60 rows
  EXPECT_EQ(elsewhere, 0);
  // Without boundary values the field has no value below 1: no line at all.
  f.edge[int(Side::Left)].clear();
  o.levels = {0.5};
  Raster none = decode(encode_png(f, o));
  EXPECT_EQ(none.px, without.px);
}

TEST(Picture, ArrowsNeedVelocityAndAreDrawn) {
  FieldSnapshot f = ramp(20, 10), u = ramp(20, 10), v = ramp(20, 10);
  u.name = "u";
  v.name = "v";
  for (auto& x : v.values) x = 0;
  PngOptions o;
  o.scale = 5;
  o.arrows = 8;
  EXPECT_THROW(encode_png(f, o), std::logic_error);
  o.arrow_u = &u;
  o.arrow_v = &v;
  Raster with = decode(encode_png(f, o));
  o.arrows = 0;
  Raster without = decode(encode_png(f, o));
  int changed = 0;
  for (int y = 0; y < with.h; ++y)
    for (int x = 0; x < with.w; ++x) changed += !(with.at(x, y) == without.at(x, y));
  EXPECT_GT(changed, 8 * 4 * 5);  // 8 x 4 arrows, each several pixels long
}

TEST(Picture, ObstaclesGetACrispOutlineOnlyWhenAnnotated) {
  FieldSnapshot f = ramp(20, 10);
  f.solid.assign(200, 0);
  for (int j = 4; j <= 6; ++j)
    for (int i = 8; i <= 11; ++i) f.solid[f.index(i, j)] = 1;
  PngOptions o;
  o.scale = 8;
  Raster plain = decode(encode_png(f, o));
  o.annotate = true;
  PictureLayout L;
  Raster ann = decode(encode_png(f, o, &L));
  // The left face of the obstacle (cell 8, row j = 5): ink in the annotated picture.
  const int x = (8 - 1) * 8, y = (10 - 5) * 8 + 4;
  EXPECT_EQ(plain.at(x, y), o.solid_rgb);
  EXPECT_TRUE(dark(ann.at(L.field_x + x, L.field_y + y)));
  // The obstacle's inside keeps the solid colour.
  EXPECT_EQ(ann.at(L.field_x + x + 12, L.field_y + y), o.solid_rgb);
}
