// Small projection-model cases built as configs (no Lua), shared by the unit tests and
// the GPU tests that hold CUDA to the CPU: the lid-driven cavity every test of the
// solver, the device dt and the checkpoints starts from.
#pragma once
#include "models/projection/projection_config.hpp"

namespace flowlua::test {

// An n x n unit cavity, walls on every side, the top one moving at u = 1; the pressure
// solver and its tolerance as given, the CPU backend (callers change what they test).
inline ProjectionConfig lid_cavity(int n, PressureSolverKind solver, double tol, int max_iter, double nu = 0.01) {
  ProjectionConfig c;
  c.grid = Grid::make(n, n, 1.0, 1.0);
  c.nu = nu;
  for (Side s : kSides) {
    auto& b = c.boundaries[int(s)];
    b.kind = BoundaryKind::Dirichlet;
    b.normal.assign(n, 0.0);
    b.tangential.assign(n, s == Side::Top ? 1.0 : 0.0);
  }
  c.pressure.solver = solver;
  c.pressure.tol = tol;
  c.pressure.max_iter = max_iter;
  c.backend = BackendChoice::Cpu;
  return c;
}

// The lid cavity the CUDA device-step tests step (red-black SOR, omega 1.8, to 1e-7 or
// 3000 sweeps, nu 0.005) on the CUDA backend in the given precision.
inline ProjectionConfig cuda_sor_cavity(int n, Precision prec) {
  ProjectionConfig c = lid_cavity(n, PressureSolverKind::RedBlackSOR, 1e-7, 3000, 0.005);
  c.pressure.omega = 1.8;
  c.precision = prec;
  c.backend = BackendChoice::Cuda;
  return c;
}

}  // namespace flowlua::test
