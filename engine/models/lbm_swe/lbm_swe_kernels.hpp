// The lbm_swe model's kernel variants (core/kernel_registry.hpp), one stage:
//   stream_collide  flat_open | flat | bed_open | bed (the general one)
//   depth_guard     sum_every_16 (the NaN and negative-depth guard)
// "flat" leaves the bed-slope force and its depth and bed arrays out (a flat bed),
// "open" the obstacle flags (no obstacle cell). All are the same template
// (stream_collide.hpp) with those parts compiled out.
#pragma once
#include "core/kernel_registry.hpp"
#include "models/lbm_swe/lbm_swe_config.hpp"

namespace flowlua::lbm_swe {

const KernelRegistry& kernel_registry();
// scheme = "flat" or "bed"; obstacles = any obstacle cell.
KernelKey kernel_key(const LbmSweConfig& c, bool bed, bool solid, const char* backend);

}  // namespace flowlua::lbm_swe
