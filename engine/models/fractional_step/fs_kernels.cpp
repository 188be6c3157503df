#include "models/fractional_step/fs_kernels.hpp"

namespace flowlua::fractional_step {

namespace {

bool always(const KernelKey&) { return true; }
bool quick(const KernelKey& k) { return k.scheme == "quick"; }
bool central(const KernelKey& k) { return k.scheme == "central"; }
bool fft(const KernelKey& k) { return k.pressure == "fft"; }

bool quick_periodic(const KernelKey& k) { return quick(k) && k.periodic; }
bool central_periodic(const KernelKey& k) { return central(k) && k.periodic; }
bool periodic(const KernelKey& k) { return k.periodic; }

KernelRegistry build() {
  KernelRegistry r;
  r.add({"momentum", "quick", "R(u) with QUICK face values and the AB2 update in one pass",
         "advection = 'quick' and every side periodic", quick_periodic, 2});
  r.add({"momentum", "central", "R(u) with central face values and the AB2 update in one pass",
         "advection = 'central' and every side periodic", central_periodic, 2});
  r.add({"momentum", "quick_walls",
         "R(u) with QUICK face values and the AB2 update; wall axes read the ghost layer, central faces next to walls",
         "advection = 'quick'", quick, 1});
  r.add({"momentum", "central_walls",
         "R(u) with central face values and the AB2 update; wall axes read the ghost layer", "advection = 'central'",
         central, 1});
  r.add({"momentum", "general", "R(u) and the AB2 update, the scheme read at run time, walls or periodic", "nothing",
         always, 0});
  r.add({"rhs", "periodic", "div(u*) / dt, neighbours wrapped", "every side periodic", periodic, 1});
  r.add({"rhs", "general", "div(u*) / dt, neighbours wrapped on periodic axes, wall faces read on the others",
         "nothing", always, 0});
  r.add({"pressure", "fft_direct", "one FFT solve (exact in the periodic box; cosine transforms along wall axes)",
         "pressure.solver = 'fft'", fft, 1});
  r.add({"pressure", "solver", "the pressure solver's own kernels", "nothing", always, 0});
  r.add({"correction", "periodic", "u = u* - dt grad p, neighbours wrapped", "every side periodic", periodic, 1});
  r.add({"correction", "general", "u = u* - dt grad p, wall faces left at the wall's value", "nothing", always, 0});
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
  if (c.dims == 3)
    for (const SideCondition& b : c.boundaries3) k.periodic = k.periodic && b.kind == BoundaryKind::Periodic;
  return k;
}

}  // namespace flowlua::fractional_step
