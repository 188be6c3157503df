#include "io/colormap.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/error.hpp"

namespace flowlua::io {

namespace {

using Rgb = std::array<std::uint8_t, 3>;

// matplotlib's viridis (van der Walt & Smith, CC0) sampled at t = 0, 0.1, ..., 1.
// Linear interpolation between these stays within a few levels of the full table.
constexpr Rgb kViridis[] = {
    {68, 1, 84},    {72, 37, 118},  {65, 68, 135},  {53, 96, 141},
    {42, 120, 142}, {33, 144, 140}, {34, 168, 132}, {67, 191, 113},
    {122, 209, 81}, {187, 223, 39}, {253, 231, 37},
};

// Moreland's "cool to warm" diverging map ("Diverging Color Maps for Scientific
// Visualization", 2009), sampled at t = 0, 1/8, ..., 1. The middle samples keep the
// bowed path through Msh space that a plain blue-grey-red line would flatten.
constexpr Rgb kCoolwarm[] = {
    {59, 76, 192},   {98, 130, 234},  {141, 176, 254}, {184, 208, 249}, {221, 221, 221},
    {245, 196, 173}, {244, 154, 123}, {222, 96, 77},   {180, 4, 38},
};

template <std::size_t N>
Rgb interpolate(const Rgb (&table)[N], double t) {
  double pos = t * double(N - 1);
  std::size_t i = std::min(std::size_t(pos), N - 2);  // t = 1 lands on the last segment
  double f = pos - double(i);
  Rgb out{};
  for (int c = 0; c < 3; ++c) {
    double v = table[i][c] + f * (double(table[i + 1][c]) - double(table[i][c]));
    out[c] = std::uint8_t(std::lround(v));
  }
  return out;
}

}  // namespace

Colormap colormap_from_name(const std::string& name) {
  std::string key = name;
  for (char& ch : key) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  if (key == "viridis") return Colormap::Viridis;
  if (key == "coolwarm") return Colormap::Coolwarm;
  if (key == "gray" || key == "grey") return Colormap::Gray;
  throw CaseError("unknown colormap '" + name + "'; allowed: viridis, coolwarm, gray");
}

const char* colormap_name(Colormap map) {
  switch (map) {
    case Colormap::Viridis: return "viridis";
    case Colormap::Coolwarm: return "coolwarm";
    case Colormap::Gray: return "gray";
  }
  return "unknown";
}

std::array<std::uint8_t, 3> colormap_rgb(Colormap map, double t) {
  if (std::isnan(t)) return colormap_nan_rgb;
  t = std::clamp(t, 0.0, 1.0);
  switch (map) {
    case Colormap::Viridis: return interpolate(kViridis, t);
    case Colormap::Coolwarm: return interpolate(kCoolwarm, t);
    case Colormap::Gray: {
      auto v = std::uint8_t(std::lround(t * 255.0));
      return {v, v, v};
    }
  }
  return colormap_nan_rgb;
}

}  // namespace flowlua::io
