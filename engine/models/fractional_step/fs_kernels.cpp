#include "models/fractional_step/fs_kernels.hpp"

namespace flowlua::fractional_step {

namespace {

bool always(const KernelKey&) { return true; }
bool quick(const KernelKey& k) { return k.scheme == "quick"; }
bool central(const KernelKey& k) { return k.scheme == "central"; }
bool fft(const KernelKey& k) { return k.pressure == "fft"; }

// "periodic": every side periodic; "obstacles": some cell is solid.
bool open_box(const KernelKey& k) { return k.periodic && !k.obstacles; }
bool quick_periodic(const KernelKey& k) { return quick(k) && open_box(k); }
bool central_periodic(const KernelKey& k) { return central(k) && open_box(k); }
bool quick_sides(const KernelKey& k) { return quick(k) && !k.obstacles; }
bool central_sides(const KernelKey& k) { return central(k) && !k.obstacles; }
bool no_obstacles(const KernelKey& k) { return !k.obstacles; }

KernelRegistry build() {
  KernelRegistry r;
  r.add({"momentum", "quick", "R(u) with QUICK face values and the AB2 update in one pass",
         "advection = 'quick', every side periodic and no obstacles", quick_periodic, 3});
  r.add({"momentum", "central", "R(u) with central face values and the AB2 update in one pass",
         "advection = 'central', every side periodic and no obstacles", central_periodic, 3});
  r.add({"momentum", "quick_walls",
         "R(u) with QUICK face values and the AB2 update; sides read through the ghost layer, central faces next "
         "to them",
         "advection = 'quick' and no obstacles", quick_sides, 2});
  r.add({"momentum", "central_walls",
         "R(u) with central face values and the AB2 update; sides read through the ghost layer",
         "advection = 'central' and no obstacles", central_sides, 2});
  r.add({"momentum", "quick_bodies",
         "R(u) with QUICK face values and the AB2 update; sides through the ghost layer, faces beside obstacles "
         "fixed at 0, neighbours inside them mirrored, central faces next to both",
         "advection = 'quick'", quick, 1});
  r.add({"momentum", "central_bodies",
         "R(u) with central face values and the AB2 update; sides through the ghost layer, faces beside obstacles "
         "fixed at 0, neighbours inside them mirrored",
         "advection = 'central'", central, 1});
  r.add({"momentum", "general",
         "R(u) and the AB2 update, the scheme read at run time; periodic sides, other sides and obstacles",
         "nothing", always, 0});
  r.add({"rhs", "periodic", "div(u*) / dt, neighbours wrapped", "every side periodic and no obstacles", open_box,
         1});
  r.add({"rhs", "general", "div(u*) / dt, neighbours wrapped on periodic axes, the sides' faces read on the others",
         "nothing", always, 0});
  r.add({"pressure", "fft_direct", "one FFT solve (exact in the box; cosine transforms along wall axes, sine "
         "along outflow pairs)",
         "pressure.solver = 'fft'", fft, 1});
  r.add({"pressure", "solver", "the pressure solver's own kernels", "nothing", always, 0});
  r.add({"correction", "periodic", "u = u* - dt grad p, neighbours wrapped", "every side periodic and no obstacles",
         open_box, 2});
  r.add({"correction", "walls", "u = u* - dt grad p, the sides' faces left at their values", "no obstacles",
         no_obstacles, 1});
  r.add({"correction", "general",
         "u = u* - dt grad p, the sides' faces and the faces beside obstacles left at their values", "nothing",
         always, 0});
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
  for (std::uint8_t x : c.solid) k.obstacles = k.obstacles || x != 0;
  k.periodic = true;
  if (c.dims == 3)
    for (const SideCondition& b : c.boundaries3) k.periodic = k.periodic && b.kind == BoundaryKind::Periodic;
  else
    for (const SideCondition& b : c.boundaries) k.periodic = k.periodic && b.kind == BoundaryKind::Periodic;
  return k;
}

}  // namespace flowlua::fractional_step
