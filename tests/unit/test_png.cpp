// Field images: decoded back with stb_image and checked pixel by pixel.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include <unistd.h>

#include "core/error.hpp"
#include "io/colormap.hpp"
#include "io/files.hpp"
#include "io/png.hpp"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC  // keep this copy private to the test binary
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace fs = std::filesystem;
using flowlua::FieldSnapshot;
using flowlua::Grid;
using namespace flowlua::io;
using Rgb = std::array<std::uint8_t, 3>;

namespace {

struct Image {
  int w = 0, h = 0;
  std::vector<std::uint8_t> px;
  Rgb at(int x, int y) const {
    std::size_t k = (std::size_t(y) * w + x) * 3;
    return {px[k], px[k + 1], px[k + 2]};
  }
};

Image decode(const std::string& png) {
  Image img;
  int comp = 0;
  unsigned char* data = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()),
                                              int(png.size()), &img.w, &img.h, &comp, 3);
  if (!data) throw std::runtime_error(std::string("stb_image: ") + stbi_failure_reason());
  img.px.assign(data, data + std::size_t(img.w) * img.h * 3);
  stbi_image_free(data);
  return img;
}

FieldSnapshot make_field(int nx, int ny, double fill = 0) {
  FieldSnapshot f;
  f.name = "p";
  f.grid = Grid::make(nx, ny, 1.0, 1.0);
  f.values.assign(std::size_t(nx) * ny, fill);
  return f;
}

// Centre pixel of cell (i, j) in an image drawn with `scale` pixels per cell.
Rgb cell_px(const Image& img, const FieldSnapshot& f, int scale, int i, int j) {
  return img.at((i - 1) * scale + scale / 2, (f.ny() - j) * scale + scale / 2);
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST(Colormap, Endpoints) {
  EXPECT_EQ(colormap_rgb(Colormap::Viridis, 0.0), (Rgb{68, 1, 84}));
  EXPECT_EQ(colormap_rgb(Colormap::Viridis, 1.0), (Rgb{253, 231, 37}));
  EXPECT_EQ(colormap_rgb(Colormap::Coolwarm, 0.0), (Rgb{59, 76, 192}));
  EXPECT_EQ(colormap_rgb(Colormap::Coolwarm, 0.5), (Rgb{221, 221, 221}));
  EXPECT_EQ(colormap_rgb(Colormap::Coolwarm, 1.0), (Rgb{180, 4, 38}));
  EXPECT_EQ(colormap_rgb(Colormap::Gray, 0.0), (Rgb{0, 0, 0}));
  EXPECT_EQ(colormap_rgb(Colormap::Gray, 1.0), (Rgb{255, 255, 255}));
}

TEST(Colormap, ClampsAndNaN) {
  for (auto m : {Colormap::Viridis, Colormap::Coolwarm, Colormap::Gray}) {
    EXPECT_EQ(colormap_rgb(m, -3.0), colormap_rgb(m, 0.0));
    EXPECT_EQ(colormap_rgb(m, 7.0), colormap_rgb(m, 1.0));
    EXPECT_EQ(colormap_rgb(m, kNaN), colormap_nan_rgb);
    EXPECT_EQ(colormap_rgb(m, std::numeric_limits<double>::infinity()), colormap_rgb(m, 1.0));
  }
}

TEST(Colormap, MonotonicLuminance) {
  // Gray strictly brightens; viridis is built to brighten too. Rec. 709 luma.
  for (auto m : {Colormap::Gray, Colormap::Viridis}) {
    double prev = -1;
    for (int k = 0; k <= 100; ++k) {
      Rgb c = colormap_rgb(m, k / 100.0);
      double y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
      EXPECT_GT(y, prev) << colormap_name(m) << " at t = " << k / 100.0;
      prev = y;
    }
  }
  Rgb g = colormap_rgb(Colormap::Gray, 0.5);
  EXPECT_TRUE(g[0] == g[1] && g[1] == g[2]);
  EXPECT_NEAR(g[0], 127.5, 0.6);
}

TEST(Colormap, Names) {
  for (auto m : {Colormap::Viridis, Colormap::Coolwarm, Colormap::Gray})
    EXPECT_EQ(colormap_from_name(colormap_name(m)), m);
  EXPECT_EQ(colormap_from_name("grey"), Colormap::Gray);
  EXPECT_EQ(colormap_from_name("Viridis"), Colormap::Viridis);
  try {
    colormap_from_name("jet");
    FAIL() << "no exception";
  } catch (const flowlua::CaseError& e) {
    EXPECT_STREQ(e.what(), "unknown colormap 'jet'; allowed: viridis, coolwarm, gray");
  }
}

TEST(Png, SizeAndScale) {
  FieldSnapshot f = make_field(5, 3);
  PngOptions o;
  o.scale = 4;
  Image img = decode(encode_png(f, o));
  EXPECT_EQ(img.w, 20);
  EXPECT_EQ(img.h, 12);

  o.scale = 0;  // automatic: longer side <= 1024
  img = decode(encode_png(make_field(100, 50), o));
  EXPECT_EQ(img.w, 1000);
  EXPECT_EQ(img.h, 500);
  img = decode(encode_png(make_field(3, 1024), o));
  EXPECT_EQ(img.w, 3);
  EXPECT_EQ(img.h, 1024);
  img = decode(encode_png(make_field(2000, 7), o));  // never below one pixel per cell
  EXPECT_EQ(img.w, 2000);
  EXPECT_EQ(img.h, 7);
  EXPECT_EQ(png_scale(1025, 10, 0), 1);
  EXPECT_EQ(png_scale(512, 10, 0), 2);
}

TEST(Png, YPointsUpAndEndpointsMapToColormapEnds) {
  // v = i + 10 j: min at (1, 1) bottom left, max at (nx, ny) top right.
  const int nx = 4, ny = 3, scale = 3;
  FieldSnapshot f = make_field(nx, ny);
  for (int j = 1; j <= ny; ++j)
    for (int i = 1; i <= nx; ++i) f.set(i, j, i + 10.0 * j);
  for (auto m : {Colormap::Viridis, Colormap::Coolwarm, Colormap::Gray}) {
    PngOptions o;
    o.colormap = m;
    o.scale = scale;
    Image img = decode(encode_png(f, o));
    const Rgb first = colormap_rgb(m, 0), last = colormap_rgb(m, 1);
    // Every pixel of the top-right block is the max colour, bottom-left the min.
    for (int s = 0; s < scale; ++s)
      for (int r = 0; r < scale; ++r) {
        EXPECT_EQ(img.at(img.w - 1 - s, r), last) << colormap_name(m);
        EXPECT_EQ(img.at(s, img.h - 1 - r), first) << colormap_name(m);
      }
    // A middle cell gets the interpolated colour: (2, 2) -> 22 in [11, 34].
    EXPECT_EQ(cell_px(img, f, scale, 2, 2), colormap_rgb(m, (22.0 - 11) / 23)) << colormap_name(m);
  }
}

TEST(Png, TopRowIsJEqualsNy) {
  FieldSnapshot f = make_field(2, 5, 0.0);
  for (int i = 1; i <= 2; ++i) f.set(i, 5, 1.0);  // only the top row is bright
  PngOptions o;
  o.colormap = Colormap::Gray;
  o.scale = 2;
  Image img = decode(encode_png(f, o));
  for (int x = 0; x < img.w; ++x) {
    EXPECT_EQ(img.at(x, 0), (Rgb{255, 255, 255}));
    EXPECT_EQ(img.at(x, 1), (Rgb{255, 255, 255}));
    EXPECT_EQ(img.at(x, 2), (Rgb{0, 0, 0}));
    EXPECT_EQ(img.at(x, img.h - 1), (Rgb{0, 0, 0}));
  }
}

TEST(Png, SolidCellsAreGreyAndOutOfRange) {
  FieldSnapshot f = make_field(3, 2);
  f.values = {1, 2, 1e9, 3, 2, 1};  // the huge value sits in an obstacle
  f.solid = {0, 0, 1, 0, 0, 0};
  PngOptions o;
  o.scale = 2;
  Image img = decode(encode_png(f, o));
  EXPECT_EQ(cell_px(img, f, 2, 3, 1), o.solid_rgb);
  EXPECT_EQ(cell_px(img, f, 2, 1, 1), colormap_rgb(o.colormap, 0));
  EXPECT_EQ(cell_px(img, f, 2, 1, 2), colormap_rgb(o.colormap, 1));
  EXPECT_EQ(cell_px(img, f, 2, 2, 1), colormap_rgb(o.colormap, 0.5));

  o.solid_rgb = {1, 2, 3};
  img = decode(encode_png(f, o));
  EXPECT_EQ(cell_px(img, f, 2, 3, 1), (Rgb{1, 2, 3}));
}

TEST(Png, FixedRangeClamps) {
  FieldSnapshot f = make_field(4, 1);
  f.values = {-5, 0.25, 0.75, 7};
  PngOptions o;
  o.colormap = Colormap::Gray;
  o.auto_range = false;
  o.lo = 0;
  o.hi = 1;
  o.scale = 1;
  Image img = decode(encode_png(f, o));
  EXPECT_EQ(img.at(0, 0), (Rgb{0, 0, 0}));
  EXPECT_EQ(img.at(1, 0), colormap_rgb(Colormap::Gray, 0.25));
  EXPECT_EQ(img.at(2, 0), colormap_rgb(Colormap::Gray, 0.75));
  EXPECT_EQ(img.at(3, 0), (Rgb{255, 255, 255}));

  std::swap(o.lo, o.hi);  // a reversed range reverses the map
  img = decode(encode_png(f, o));
  EXPECT_EQ(img.at(0, 0), (Rgb{255, 255, 255}));
  EXPECT_EQ(img.at(3, 0), (Rgb{0, 0, 0}));

  o.hi = kNaN;
  EXPECT_THROW(encode_png(f, o), flowlua::CaseError);
}

TEST(Png, FlatFieldMapsToMiddle) {
  FieldSnapshot f = make_field(3, 3, 2.5);
  PngOptions o;
  o.scale = 1;
  Image img = decode(encode_png(f, o));
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) EXPECT_EQ(img.at(x, y), colormap_rgb(o.colormap, 0.5));

  f.values.assign(9, 100.0);  // fixed range with lo == hi: also the middle
  o.auto_range = false;
  o.lo = o.hi = 1;
  img = decode(encode_png(f, o));
  EXPECT_EQ(img.at(1, 1), colormap_rgb(o.colormap, 0.5));
}

TEST(Png, NonFiniteValuesGetNaNColour) {
  FieldSnapshot f = make_field(4, 1);
  f.values = {kNaN, 0, std::numeric_limits<double>::infinity(), 1};
  PngOptions o;
  o.scale = 1;
  Image img = decode(encode_png(f, o));
  EXPECT_EQ(img.at(0, 0), colormap_nan_rgb);
  EXPECT_EQ(img.at(2, 0), colormap_nan_rgb);
  // The range comes from the finite cells only.
  EXPECT_EQ(img.at(1, 0), colormap_rgb(o.colormap, 0));
  EXPECT_EQ(img.at(3, 0), colormap_rgb(o.colormap, 1));

  f.values.assign(4, kNaN);  // nothing finite at all: no crash, all magenta
  img = decode(encode_png(f, o));
  for (int x = 0; x < 4; ++x) EXPECT_EQ(img.at(x, 0), colormap_nan_rgb);
}

TEST(Png, BadOptionsAndSnapshots) {
  FieldSnapshot f = make_field(3, 3);
  PngOptions o;
  o.scale = -1;
  EXPECT_THROW(encode_png(f, o), flowlua::CaseError);
  o.scale = 100000;  // 300000 px wide
  EXPECT_THROW(encode_png(f, o), flowlua::CaseError);
  o.scale = 1;
  f.values.resize(5);
  EXPECT_ANY_THROW(encode_png(f, o));
}

TEST(Png, WriteCreatesFoldersAndMatchesEncode) {
  fs::path dir = fs::temp_directory_path() / ("flowlua_png_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  FieldSnapshot f = make_field(6, 4);
  for (std::size_t k = 0; k < f.values.size(); ++k) f.values[k] = double(k);
  PngOptions o;
  std::string path = (dir / "a" / "b" / "p.png").string();
  write_png(path, f, o);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes, encode_png(f, o));
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  // Nothing but the image is left in the folder.
  int entries = 0;
  for (auto& e : fs::directory_iterator(dir / "a" / "b")) (void)e, ++entries;
  EXPECT_EQ(entries, 1);

  // A folder that cannot be made (a file is in the way): the message names the file.
  std::string bad = path + "/sub/q.png";
  try {
    write_png(bad, f, o);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}
