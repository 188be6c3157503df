// The psi_omega model's kernel variants (core/kernel_registry.hpp):
//   transport  upwind | central | upwind2 (the scheme fixed at compile time)
//              | any_scheme (the scheme a run-time branch, the general variant)
//   stream     flagged (the Poisson solver's own kernels on the node flags)
// With time.scheme = 'adi' the transport stage is replaced by the line solves
//   lines_x, lines_y  the tridiagonal algorithms of linalg/tridiagonal (tridiagonal_kernels.hpp)
#pragma once
#include "models/psi_omega/psi_omega_config.hpp"
#include "core/kernel_registry.hpp"

namespace flowlua::psi_omega {

// adi: time.scheme = 'adi' (no transport stage); stream_lines: pressure.solver
// = 'adi' (the lines_x, lines_y stages serve the stream-function iteration too).
const KernelRegistry& kernel_registry(bool adi = false, bool stream_lines = false);
KernelKey kernel_key(const PsiOmegaConfig& c, const char* backend);

}  // namespace flowlua::psi_omega
