// The psi_omega model's kernel variants (core/kernel_registry.hpp):
//   transport  upwind | central | upwind2 (the scheme fixed at compile time)
//              | any_scheme (the scheme a run-time branch, the general variant)
//   stream     flagged (the Poisson solver's own kernels on the node flags)
#pragma once
#include "models/psi_omega/psi_omega_config.hpp"
#include "core/kernel_registry.hpp"

namespace flowlua::psi_omega {

const KernelRegistry& kernel_registry();
KernelKey kernel_key(const PsiOmegaConfig& c, const char* backend);

}  // namespace flowlua::psi_omega
