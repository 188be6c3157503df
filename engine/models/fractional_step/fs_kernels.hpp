// The fractional-step model's kernel variants (core/kernel_registry.hpp):
//   momentum    quick | central | general (the scheme chosen at run time)
//   rhs         periodic
//   pressure    fft_direct | solver (the pressure solver's own kernels)
//   correction  periodic
// The momentum variants have the scheme compiled in; the general one reads it from
// the config each call (the same arithmetic, bit for bit on the CPU).
#pragma once
#include "core/kernel_registry.hpp"
#include "models/fractional_step/fractional_step_config.hpp"

namespace flowlua::fractional_step {

const KernelRegistry& kernel_registry();
KernelKey kernel_key(const FractionalStepConfig& c, const char* backend);

}  // namespace flowlua::fractional_step
