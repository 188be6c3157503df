// The global `flow` table: everything a case script reaches through `flow.`.
#include "host.hpp"
#include "lua_heightmap.hpp"

namespace flowlua::lua {

void open_flow(lua_State* L) {
  lua_newtable(L);
  int flow = lua_gettop(L);
  lua_pushstring(L, FLOWLUA_VERSION);
  lua_setfield(L, flow, "version");
  register_boundaries(L, flow);
  register_shapes(L, flow);
  register_heightmap(L, flow);
  register_simulation(L, flow);
  register_fields(L);
  register_output(L, flow);
  register_vtk(L, flow);
  lua_pushvalue(L, flow);
  lua_setglobal(L, "flow");
  // require("flow") gives the same table.
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, flow);
  lua_setfield(L, -2, "flow");
  lua_settop(L, flow - 1);
}

}  // namespace flowlua::lua
