#include "io/text.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

// Both stb headers compiled here only, with internal linkage.
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <stb_truetype.h>
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

namespace flowlua::io {

namespace {

struct FontFile {
  std::string path;
  std::vector<unsigned char> bytes;
  stbtt_fontinfo info{};
};

// The first readable TrueType font of the list, loaded once per process.
const FontFile* font_file() {
  static const std::unique_ptr<FontFile> font = [] {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("FLOWLUA_FONT"); env && *env) candidates.emplace_back(env);
    for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
                          "/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
                          "/usr/local/share/fonts/DejaVuSans.ttf"})
      candidates.emplace_back(p);
    for (const auto& path : candidates) {
      std::ifstream in(path, std::ios::binary);
      if (!in) continue;
      auto f = std::make_unique<FontFile>();
      f->path = path;
      f->bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      if (f->bytes.empty() || !stbtt_InitFont(&f->info, f->bytes.data(), stbtt_GetFontOffsetForIndex(f->bytes.data(), 0)))
        continue;
      return f;
    }
    return std::unique_ptr<FontFile>();
  }();
  return font.get();
}

}  // namespace

struct TextRenderer::Font {
  const FontFile* file;
  float scale;
  int ascent;  // pixels
};

TextRenderer::TextRenderer(int pixel_height) {
  pixel_height = std::max(pixel_height, 8);
  if (const FontFile* f = font_file()) {
    int asc = 0, desc = 0, gap = 0;
    stbtt_GetFontVMetrics(&f->info, &asc, &desc, &gap);
    const float scale = stbtt_ScaleForPixelHeight(&f->info, float(pixel_height));
    font_ = new Font{f, scale, int(std::lround(asc * scale))};
    line_height_ = int(std::lround((asc - desc) * scale));
  } else {
    easy_scale_ = std::max(1, pixel_height / 10);  // stb_easy_font glyphs are about 10 px high
    line_height_ = 10 * easy_scale_;
  }
}

TextRenderer::~TextRenderer() { delete font_; }

std::string TextRenderer::describe() const {
  return font_ ? "truetype: " + font_->file->path : std::string("stb_easy_font");
}

int TextRenderer::width(const std::string& text) const {
  if (!font_) return stb_easy_font_width(const_cast<char*>(text.c_str())) * easy_scale_;
  float x = 0;
  for (std::size_t k = 0; k < text.size(); ++k) {
    int adv = 0, lsb = 0;
    stbtt_GetCodepointHMetrics(&font_->file->info, (unsigned char)text[k], &adv, &lsb);
    x += adv * font_->scale;
    if (k + 1 < text.size())
      x += font_->scale * stbtt_GetCodepointKernAdvance(&font_->file->info, (unsigned char)text[k], (unsigned char)text[k + 1]);
  }
  return int(std::ceil(x));
}

void TextRenderer::draw(Raster& r, int x, int y, const std::string& text, Rgb colour) const {
  if (!font_) {
    // Quads of 4 vertices (x, y, z, rgba) in units of the font's pixels.
    std::vector<char> buf(text.size() * 300 + 64);
    const int quads = stb_easy_font_print(0, 0, const_cast<char*>(text.c_str()), nullptr, buf.data(), int(buf.size()));
    for (int q = 0; q < quads; ++q) {
      const float* v0 = reinterpret_cast<const float*>(buf.data() + q * 64);
      const float* v2 = reinterpret_cast<const float*>(buf.data() + q * 64 + 32);
      r.fill_rect(x + int(v0[0] * easy_scale_), y + int(v0[1] * easy_scale_), x + int(v2[0] * easy_scale_),
                  y + int(v2[1] * easy_scale_), colour);
    }
    return;
  }
  const stbtt_fontinfo& info = font_->file->info;
  const float s = font_->scale;
  float pen = float(x);
  const int baseline = y + font_->ascent;
  std::vector<unsigned char> glyph;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const int c = (unsigned char)text[k];
    int adv = 0, lsb = 0, x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetCodepointHMetrics(&info, c, &adv, &lsb);
    const float shift = pen - std::floor(pen);
    stbtt_GetCodepointBitmapBoxSubpixel(&info, c, s, s, shift, 0, &x0, &y0, &x1, &y1);
    const int gw = x1 - x0, gh = y1 - y0;
    if (gw > 0 && gh > 0) {
      glyph.assign(std::size_t(gw) * gh, 0);
      stbtt_MakeCodepointBitmapSubpixel(&info, glyph.data(), gw, gh, gw, s, s, shift, 0, c);
      for (int gy = 0; gy < gh; ++gy)
        for (int gx = 0; gx < gw; ++gx)
          r.blend(int(std::floor(pen)) + x0 + gx, baseline + y0 + gy, colour, glyph[std::size_t(gy) * gw + gx] / 255.0);
    }
    pen += adv * s;
    if (k + 1 < text.size()) pen += s * stbtt_GetCodepointKernAdvance(&info, c, (unsigned char)text[k + 1]);
  }
}

}  // namespace flowlua::io
