#include "models/fractional_step/fs_kernels.hpp"

namespace flowlua::fractional_step {

namespace {

bool always(const KernelKey&) { return true; }
bool quick(const KernelKey& k) { return k.scheme == "quick"; }
bool central(const KernelKey& k) { return k.scheme == "central"; }
bool fft(const KernelKey& k) { return k.pressure == "fft"; }

KernelRegistry build() {
  KernelRegistry r;
  r.add({"momentum", "quick", "R(u) with QUICK face values and the AB2 update in one pass", "advection = 'quick'",
         quick, 1});
  r.add({"momentum", "central", "R(u) with central face values and the AB2 update in one pass",
         "advection = 'central'", central, 1});
  r.add({"momentum", "general", "R(u) and the AB2 update, the scheme read at run time", "nothing", always, 0});
  r.add({"rhs", "periodic", "div(u*) / dt, neighbours wrapped", "nothing", always, 0});
  r.add({"pressure", "fft_direct", "one FFT solve (exact in the periodic box)", "pressure.solver = 'fft'", fft, 1});
  r.add({"pressure", "solver", "the pressure solver's own kernels", "nothing", always, 0});
  r.add({"correction", "periodic", "u = u* - dt grad p, neighbours wrapped", "nothing", always, 0});
  return r;
}

}  // namespace

const KernelRegistry& kernel_registry() {
  static const KernelRegistry r = build();
  return r;
}

KernelKey kernel_key(const FractionalStepConfig& c, const char* backend) {
  KernelKey k;
  k.model = "fractional_step";
  k.backend = backend;
  k.precision = c.precision;
  k.scheme = fs_advection_name(c.advection);
  switch (c.pressure.solver) {
    case PressureSolverKind::RedBlackSOR: k.pressure = "rbsor"; break;
    case PressureSolverKind::ConjugateGradient: k.pressure = "cg"; break;
    case PressureSolverKind::PreconditionedCG: k.pressure = "pcg"; break;
    case PressureSolverKind::Multigrid: k.pressure = "multigrid"; break;
    case PressureSolverKind::FFT: k.pressure = "fft"; break;
    case PressureSolverKind::LineAdi: k.pressure = "adi"; break;
  }
  k.obstacles = false;
  k.periodic = true;
  return k;
}

}  // namespace flowlua::fractional_step
