// Text on pictures (labels, colour-bar numbers), drawn by a library: stb_truetype with
// a TrueType font found at run time (DejaVu Sans from Debian's fonts-dejavu-core, or
// the file named by FLOWLUA_FONT), and stb_easy_font's built-in bitmap font when no
// font file is found.
#pragma once
#include <string>

#include "io/raster.hpp"

namespace flowlua::io {

class TextRenderer {
 public:
  // `pixel_height`: the height of a line of text in pixels.
  explicit TextRenderer(int pixel_height);
  ~TextRenderer();
  TextRenderer(const TextRenderer&) = delete;
  TextRenderer& operator=(const TextRenderer&) = delete;

  int line_height() const { return line_height_; }
  int width(const std::string& text) const;
  // Draws `text` with its top-left corner at (x, y).
  void draw(Raster& r, int x, int y, const std::string& text, Rgb colour) const;
  // "truetype: /usr/share/fonts/.../DejaVuSans.ttf" or "stb_easy_font".
  std::string describe() const;

 private:
  struct Font;
  Font* font_ = nullptr;  // null: stb_easy_font
  int line_height_ = 0;
  int easy_scale_ = 1;
};

}  // namespace flowlua::io
