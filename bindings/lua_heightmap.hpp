// flow.heightmap("file.png", { low, high }): a bed elevation from a grey image, as a
// Lua value that model = 'lbm_swe' reads for `bed` (bindings/lbm_swe_reader.cpp).
#pragma once
#include <lua.hpp>

#include "shapes.hpp"

namespace flowlua::lua {

inline constexpr const char* kHeightmapMeta = "flowlua.Heightmap";

struct HeightmapUD {
  HeightImage image;
};

void register_heightmap(lua_State* L, int flow_table);

}  // namespace flowlua::lua
