#include "models/psi_omega/psi_omega_kernels.hpp"

#include "linalg/tridiagonal/tridiagonal_kernels.hpp"

namespace flowlua::psi_omega {

namespace {

bool always(const KernelKey&) { return true; }
bool upwind(const KernelKey& k) { return k.scheme == "upwind"; }
bool central(const KernelKey& k) { return k.scheme == "central"; }
bool upwind2(const KernelKey& k) { return k.scheme == "upwind2"; }

KernelRegistry build(bool adi, bool lines) {
  KernelRegistry r;
  if (adi || lines) {
    tridiag::add_line_solver_variants(r, "lines_x", tridiag::LineDir::X);
    tridiag::add_line_solver_variants(r, "lines_y", tridiag::LineDir::Y);
  }
  if (adi) {
    r.add({"stream", "flagged", "-lap psi = w by the Poisson solver's own kernels on the node flags", "nothing",
           always, 0});
    return r;
  }
  r.add({"transport", "upwind", "w (and T) in one pass, first-order upwind convection (compiled in)",
         "advection = 'upwind'", upwind, 1});
  r.add({"transport", "central", "w (and T) in one pass, central convection (compiled in)",
         "advection = 'central'", central, 1});
  r.add({"transport", "upwind2", "w (and T) in one pass, second-order upwind convection (compiled in)",
         "advection = 'upwind2'", upwind2, 1});
  r.add({"transport", "any_scheme", "w (and T) in one pass, the convection scheme chosen at run time", "nothing",
         always, 0});
  r.add({"stream", "flagged", "-lap psi = w by the Poisson solver's own kernels on the node flags", "nothing",
         always, 0});
  return r;
}

}  // namespace

const KernelRegistry& kernel_registry(bool adi, bool stream_lines) {
  static const KernelRegistry registries[4] = {build(false, false), build(false, true), build(true, false),
                                               build(true, true)};
  return registries[2 * adi + stream_lines];
}

KernelKey kernel_key(const PsiOmegaConfig& c, const char* backend) {
  KernelKey k;
  k.model = "psi_omega";
  k.backend = backend;
  k.precision = c.precision;
  k.scheme = advection_name(c.psi_omega.advection);
  k.pressure = c.pressure.solver == PressureSolverKind::RedBlackSOR ? "rbsor"
               : c.pressure.solver == PressureSolverKind::LineAdi   ? "adi"
                                                                     : "cg";
  k.nx = c.grid.nx - 1;  // interior nodes: the lengths of the ADI lines
  k.ny = c.grid.ny - 1;
  return k;
}

}  // namespace flowlua::psi_omega
