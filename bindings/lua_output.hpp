// Output helpers shared with tests.
#pragma once
#include <lua.hpp>

#include <string>

namespace flowlua::lua {

// "cavity_%06d.png" with step 120 -> "cavity_000120.png". Only %d (optionally with a
// width, zero-padded with %0Nd) and %% are allowed: a user pattern never reaches printf.
std::string format_step_pattern(const std::string& pattern, long step);

int l_png_call(lua_State* L);

}  // namespace flowlua::lua
