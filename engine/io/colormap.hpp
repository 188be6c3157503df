// Colour maps for field images: value in [0, 1] -> 8-bit sRGB.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace flowlua::io {

enum class Colormap { Viridis, Coolwarm, Gray };

// "viridis", "coolwarm", "gray" (or "grey"), any letter case. Throws flowlua::CaseError
// "unknown colormap 'x'; allowed: viridis, coolwarm, gray" otherwise.
Colormap colormap_from_name(const std::string& name);
const char* colormap_name(Colormap map);

// Colour at t in [0, 1]; t outside is clamped. NaN gives colormap_nan_rgb.
std::array<std::uint8_t, 3> colormap_rgb(Colormap map, double t);

// Magenta: appears in none of the maps, so bad values stand out.
constexpr std::array<std::uint8_t, 3> colormap_nan_rgb = {255, 0, 255};

}  // namespace flowlua::io
