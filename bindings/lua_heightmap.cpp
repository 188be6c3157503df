#include "lua_heightmap.hpp"

#include <new>

#include "core/error.hpp"
#include "host.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

namespace {

int l_heightmap(lua_State* L) {
  const std::string path = arg_string(L, 1, "flow.heightmap", "the image file");
  if (lua_gettop(L) != 2 || lua_type(L, 2) != LUA_TTABLE)
    throw CaseError("flow.heightmap takes the image file and { low, high }: the elevations (m) of black and white");
  lua_rawgeti(L, 2, 1);
  lua_rawgeti(L, 2, 2);
  int ok_low = 0, ok_high = 0;
  const double low = lua_tonumberx(L, -2, &ok_low), high = lua_tonumberx(L, -1, &ok_high);
  lua_pop(L, 2);
  if (!ok_low || !ok_high || lua_rawlen(L, 2) != 2)
    throw CaseError("flow.heightmap: the second argument must be { low, high } (two numbers, m)");
  Host& h = host_of(L);
  HeightImage img = load_heightmap(h.input_path(path), low, high);
  void* mem = lua_newuserdatauv(L, sizeof(HeightmapUD), 0);
  new (mem) HeightmapUD{std::move(img)};
  luaL_setmetatable(L, kHeightmapMeta);
  return 1;
}

int l_heightmap_gc(lua_State* L) {
  auto* u = test_udata<HeightmapUD>(L, 1, kHeightmapMeta);
  if (u) u->~HeightmapUD();
  return 0;
}

}  // namespace

void register_heightmap(lua_State* L, int flow) {
  luaL_newmetatable(L, kHeightmapMeta);
  lua_pushcfunction(L, l_heightmap_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushstring(L, "flow heightmap");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  lua_pushcfunction(L, protect<l_heightmap>);
  lua_setfield(L, flow, "heightmap");
}

}  // namespace flowlua::lua
