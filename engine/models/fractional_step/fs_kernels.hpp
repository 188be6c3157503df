// The fractional-step model's kernel variants (core/kernel_registry.hpp):
//   momentum    quick | central (every side periodic) | quick_walls | central_walls
//               | general (the scheme chosen at run time, walls or periodic)
//   rhs         periodic | general (wall faces read on wall axes)
//   pressure    fft_direct | solver (the pressure solver's own kernels)
//   correction  periodic | general (wall faces left alone)
// The momentum variants have the scheme compiled in; the general one reads it from
// the config each call (the same arithmetic, bit for bit on the CPU). The *_walls and
// general variants index wall axes through the ghost layer (fs_state.hpp, kWalls);
// in a periodic box they give the periodic variants' bits.
#pragma once
#include "core/kernel_registry.hpp"
#include "models/fractional_step/fractional_step_config.hpp"

namespace flowlua::fractional_step {

const KernelRegistry& kernel_registry();
KernelKey kernel_key(const FractionalStepConfig& c, const char* backend);

}  // namespace flowlua::fractional_step
