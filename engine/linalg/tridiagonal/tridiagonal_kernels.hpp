// The tridiagonal line solvers as kernel variants: a model that solves lines adds a
// stage for each direction to its KernelRegistry with add_line_solver_variants, and
// maps the chosen name back with algorithm_named. The plan then picks, per grid shape
// (KernelKey::nx, ny), backend and precision, the algorithm ranked fastest there, and
// --explain shows it; `kernels = { <stage> = "pcr" }` forces one.
#pragma once
#include <string>

#include "core/kernel_registry.hpp"
#include "linalg/tridiagonal/line_batch.hpp"

namespace flowlua::tridiag {

void add_line_solver_variants(KernelRegistry& r, const std::string& stage, LineDir dir);
Algorithm algorithm_named(const std::string& name);  // std::logic_error for an unknown name

}  // namespace flowlua::tridiag
