// flow.rect, flow.circle, flow.polygon, flow.mask: obstacle shapes as Lua values.
#pragma once
#include <lua.hpp>

#include "shapes.hpp"

namespace flowlua::lua {

inline constexpr const char* kShapeMeta = "flowlua.Shape";

struct ShapeUD {
  Shape shape;
};

}  // namespace flowlua::lua
