// The fractional-step model's kernel variants (core/kernel_registry.hpp):
//   momentum    quick | central (every side periodic, no obstacles) | quick_walls |
//               central_walls (no obstacles) | quick_bodies | central_bodies |
//               general (the scheme chosen at run time; sides and obstacles)
//   rhs         periodic | general (the sides' faces read on axes with sides)
//   pressure    fft_direct | solver (the pressure solver's own kernels)
//   correction  periodic | walls (the sides' faces left alone) | general (and the
//               faces beside obstacles)
// The momentum variants have the scheme compiled in; the general one reads it from
// the config each call (the same arithmetic, bit for bit on the CPU). The *_walls,
// *_bodies and general variants index axes with sides through the ghost layer
// (fs_state.hpp, kWalls), the *_bodies and general ones test the cell flags
// (kBodies); where there is nothing for them to do they give the periodic variants'
// bits. Outflow sides add one launch per side (fs_outflow.hpp) to any variant.
#pragma once
#include "core/kernel_registry.hpp"
#include "models/fractional_step/fractional_step_config.hpp"

namespace flowlua::fractional_step {

const KernelRegistry& kernel_registry();
KernelKey kernel_key(const FractionalStepConfig& c, const char* backend);

}  // namespace flowlua::fractional_step
