// Obstacles of exact shape (flow.circle, flow.rect, flow.polygon, flow.level_set) as
// immersed bodies (engine/core/immersed.hpp): the geometry every staggered model with
// bodies can take (the projection model's reader calls it; the fractional-step
// model's can, once it has obstacles).
#pragma once
#include <vector>

#include "case_reader.hpp"
#include "core/immersed.hpp"

namespace flowlua::lua {

// After read_obstacles: classifies the faces for the obstacles that have an exact
// shape (Lua level-set functions are called here, during reading), and gives every
// obstacle its reference point for moments (a circle's centre; NaN: the centroid of
// its cells).
ImmersedGeometry read_immersed(const CaseSpec& spec, const FnStore& store, std::vector<double>& xc,
                               std::vector<double>& yc);

}  // namespace flowlua::lua
