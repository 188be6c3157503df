// What a case asks of a Poisson solver (engine/linalg/): which one and how far to
// iterate. Any model with a pressure (or stream function) Poisson problem carries one.
#pragma once

namespace flowlua {

// LineAdi: the psi_omega model's own (seed 001's line relaxation, models/psi_omega/
// stream_lines.hpp); make_pressure_solver refuses it.
enum class PressureSolverKind { RedBlackSOR, ConjugateGradient, PreconditionedCG, Multigrid, FFT, LineAdi };
enum class PreconditionerKind { Jacobi, Multigrid, FFT };
enum class MultigridCycle { V, F };

struct PressureControl {
  PressureSolverKind solver = PressureSolverKind::RedBlackSOR;
  double omega = 1.7;     // SOR relaxation, 0 < omega < 2
  double tol = 1e-5;      // stop when ||r||_2 <= tol * ||b||_2
  int max_iter = 2000;    // sweeps (rbsor), iterations (cg, pcg) or cycles (multigrid)
  int check_every = 5;    // SOR: residual evaluated every this many sweeps (seed 002)
  // pcg only: what approximates the inverse Laplacian each iteration.
  PreconditionerKind preconditioner = PreconditionerKind::Multigrid;
  // multigrid (solver or preconditioner): cycle shape and red-black Gauss-Seidel
  // sweeps before and after each coarse-grid correction.
  MultigridCycle cycle = MultigridCycle::V;
  int pre_smooth = 2;
  int post_smooth = 2;
  // Several MPI ranks: the first level with at most this many cells (the whole
  // level's) is gathered to every rank and solved there (linalg/multigrid.hpp).
  long multigrid_gather = 16384;
};

}  // namespace flowlua
