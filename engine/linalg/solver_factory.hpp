// Builds the pressure solver a case asks for (PressureControl) for one problem.
// Solvers that need to know the domain before the first solve (multigrid's coarse
// levels, the FFT's transforms) get it from the PoissonProblem; a request that cannot
// work for it (fft with obstacles or mixed sides) is a CaseError, raised here, when
// the simulation is built.
#pragma once
#include <memory>

#include "linalg/fft_poisson.hpp"
#include "linalg/multigrid.hpp"
#include "linalg/pcg.hpp"
#include "linalg/poisson_problem.hpp"
#include "linalg/rbsor.hpp"

namespace flowlua {

// Split between MPI ranks (linalg/block_halo.hpp); 3D problems are never.
inline bool distributed(const PoissonProblem& pr) { return pr.blocks != nullptr; }
inline bool distributed(const PoissonProblem3&) { return false; }

// D = 2 (PoissonProblem) or 3 (PoissonProblem3): the same solvers, one source.
template <class Exec, class Real, int D = 2>
std::unique_ptr<Preconditioner<Exec, Real, D>> make_preconditioner(const PressureControl& c,
                                                                   const PoissonProblemOf<D>& pr) {
  switch (c.preconditioner) {
    case PreconditionerKind::Jacobi: return std::make_unique<JacobiPreconditioner<Exec, Real, D>>(pr);
    case PreconditionerKind::Multigrid: return std::make_unique<MultigridPreconditioner<Exec, Real, D>>(c, pr);
    case PreconditionerKind::FFT:
      if (distributed(pr))
        throw CaseError("pressure.preconditioner = 'fft' works on one rank only (the transforms need the whole grid); "
                        "on several MPI ranks use preconditioner = 'multigrid' or 'jacobi'");
      return std::make_unique<FftPreconditioner<Exec, Real, D>>(pr);
  }
  throw CaseError("unknown pressure preconditioner");
}

// What the numerics rely on (the Lua host checks the same with friendlier words).
inline void check_pressure_control(const PressureControl& c) {
  if (c.pre_smooth < 0 || c.post_smooth < 0 || c.pre_smooth + c.post_smooth < 1)
    throw CaseError("pressure.pre_smooth and pressure.post_smooth must be >= 0, and not both 0");
  const bool mg_preconditioner =
      c.solver == PressureSolverKind::PreconditionedCG && c.preconditioner == PreconditionerKind::Multigrid;
  if (mg_preconditioner && c.pre_smooth != c.post_smooth)
    throw CaseError("pressure: the multigrid preconditioner of pcg needs pre_smooth = post_smooth "
                    "(a symmetric V-cycle; CG needs a symmetric preconditioner)");
  if (mg_preconditioner && c.cycle != MultigridCycle::V)
    throw CaseError("pressure.cycle = 'F' is for solver = 'multigrid'; pcg's multigrid preconditioner "
                    "is a symmetric V-cycle");
}

template <class Exec, class Real, int D = 2>
std::unique_ptr<PressureSolver<Exec, Real, D>> make_pressure_solver(const PressureControl& c,
                                                                    const PoissonProblemOf<D>& pr) {
  check_pressure_control(c);
  switch (c.solver) {
    case PressureSolverKind::RedBlackSOR: return std::make_unique<RedBlackSOR<Exec, Real, D>>(c, pr);
    case PressureSolverKind::ConjugateGradient:
      return std::make_unique<PreconditionedCG<Exec, Real, D>>(
          c, pr, std::make_unique<JacobiPreconditioner<Exec, Real, D>>(pr), "conjugate gradients");
    case PressureSolverKind::PreconditionedCG:
      return std::make_unique<PreconditionedCG<Exec, Real, D>>(c, pr, make_preconditioner<Exec, Real, D>(c, pr));
    case PressureSolverKind::Multigrid: return std::make_unique<MultigridSolver<Exec, Real, D>>(c, pr);
    case PressureSolverKind::FFT:
      if (distributed(pr))
        throw CaseError("pressure.solver = 'fft' works on one rank only (the transforms need the whole grid); "
                        "on several MPI ranks use solver = 'multigrid', 'pcg', 'cg' or 'rbsor' (docs/mpi.md)");
      return std::make_unique<FftPoissonSolver<Exec, Real, D>>(c, pr);
    case PressureSolverKind::LineAdi:
      throw CaseError("pressure.solver = 'adi' (line relaxation) is offered by the psi_omega model only");
  }
  throw CaseError("unknown pressure solver");
}

}  // namespace flowlua
