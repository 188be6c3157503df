// Direct Poisson solves on obstacle-free rectangles by fast transforms: the discrete
// Laplacian is diagonal in the eigenvectors of the one-dimensional second difference
// with each axis's boundary rule, so p = T^-1 (T f / -lambda).
//   periodic axis:          Fourier modes,   lambda_k = (2 - 2 cos(2 pi k / n)) / h^2
//   walls on both sides:    cosine (DCT-II), lambda_k = (2 - 2 cos(pi k / n)) / h^2
//   outflow (p = 0 on the face) on both sides:
//                           sine (DST-II),   lambda_k = (2 - 2 cos(pi (k+1) / n)) / h^2
// (cell-centred unknowns: the wall ghost is the mirror image, the outflow ghost its
// negative; Schumann & Sweet 1988, Strang 1999 "The discrete cosine transform").
// The zero mode of the singular cases (no outflow side) is set to 0: the result has
// zero mean, the constant the projection model fixes anyway.
//
// The CPU backend uses FFTW's real-to-real transforms (fft_poisson_cpu.cpp); the CUDA
// backend builds the same transforms from cuFFT real FFTs with its own reorder and
// twiddle kernels (fft_poisson_makhoul.hpp, fft_poisson_cuda.cu). Plans are made once,
// when the solver is built.
#pragma once
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "linalg/poisson_problem.hpp"
#include "linalg/preconditioner.hpp"
#include "linalg/pressure_solver.hpp"

namespace flowlua {

struct CpuExec;
struct CudaExec;

enum class FftAxis { Periodic = 0, Cosine = 1, Sine = 2 };

inline const char* fft_axis_name(FftAxis a) {
  switch (a) {
    case FftAxis::Periodic: return "Fourier (periodic)";
    case FftAxis::Cosine: return "cosine (walls)";
    case FftAxis::Sine: return "sine (outflow)";
  }
  return "?";
}

struct FftShape {
  int nx = 0, ny = 0;
  double dx = 1, dy = 1;
  FftAxis x = FftAxis::Cosine, y = FftAxis::Cosine;
};

// The transforms for this problem, or a CaseError saying why there are none.
// `allow_obstacles`: the FFT preconditioner inverts the obstacle-free box.
inline FftShape fft_shape(const PoissonProblem& pr, bool allow_obstacles, const std::string& who) {
  if (!allow_obstacles && pr.has_obstacles())
    throw CaseError(who + " needs an obstacle-free rectangle, and this case has obstacles; use "
                    "solver = 'multigrid', or 'pcg' with preconditioner = 'multigrid'");
  static const char* names[4] = {"left", "right", "bottom", "top"};
  SideCoupling s[4];
  for (int k = 0; k < 4; ++k) s[k] = side_coupling(pr, k, allow_obstacles);
  auto axis = [&](int a, int b) -> FftAxis {
    if (s[a] == SideCoupling::Periodic) return FftAxis::Periodic;
    if (s[a] == SideCoupling::Neumann && s[b] == SideCoupling::Neumann) return FftAxis::Cosine;
    if (s[a] == SideCoupling::Dirichlet && s[b] == SideCoupling::Dirichlet) return FftAxis::Sine;
    throw CaseError(who + " needs the same pressure condition on " + names[a] + " and " + names[b] +
                    " (walls on both, outflow on both, or periodic); here " + names[a] + " is " +
                    side_coupling_name(s[a]) + " and " + names[b] + " is " + side_coupling_name(s[b]) +
                    "; use solver = 'multigrid' or 'pcg'");
  };
  FftShape sh;
  sh.nx = pr.grid.nx;
  sh.ny = pr.grid.ny;
  sh.dx = pr.grid.dx;
  sh.dy = pr.grid.dy;
  sh.x = axis(0, 1);
  sh.y = axis(2, 3);
  return sh;
}

// The 3D box: the same transforms per axis (z: back and front sides).
struct FftShape3 {
  int nx = 0, ny = 0, nz = 0;
  double dx = 1, dy = 1, dz = 1;
  FftAxis x = FftAxis::Cosine, y = FftAxis::Cosine, z = FftAxis::Cosine;
  bool all_periodic() const { return x == FftAxis::Periodic && y == FftAxis::Periodic && z == FftAxis::Periodic; }
};

inline FftShape3 fft_shape(const PoissonProblem3& pr, bool allow_obstacles, const std::string& who) {
  if (!allow_obstacles && pr.has_obstacles())
    throw CaseError(who + " needs an obstacle-free box, and this case has obstacles; use "
                    "solver = 'multigrid', or 'pcg' with preconditioner = 'multigrid' or 'fft'");
  static const char* names[6] = {"left", "right", "bottom", "top", "back", "front"};
  SideCoupling s[6];
  for (int k = 0; k < 6; ++k) s[k] = side_coupling(pr, k, allow_obstacles);
  auto axis = [&](int a, int b) -> FftAxis {
    if (s[a] == SideCoupling::Periodic) return FftAxis::Periodic;
    if (s[a] == SideCoupling::Neumann && s[b] == SideCoupling::Neumann) return FftAxis::Cosine;
    if (s[a] == SideCoupling::Dirichlet && s[b] == SideCoupling::Dirichlet) return FftAxis::Sine;
    throw CaseError(who + " needs the same pressure condition on " + names[a] + " and " + names[b] +
                    " (walls on both, outflow on both, or periodic); here " + names[a] + " is " +
                    side_coupling_name(s[a]) + " and " + names[b] + " is " + side_coupling_name(s[b]) +
                    "; use solver = 'multigrid' or 'pcg'");
  };
  FftShape3 sh;
  sh.nx = pr.grid.nx;
  sh.ny = pr.grid.ny;
  sh.nz = pr.grid.nz;
  sh.dx = pr.grid.dx;
  sh.dy = pr.grid.dy;
  sh.dz = pr.grid.dz;
  sh.x = axis(0, 1);
  sh.y = axis(2, 3);
  sh.z = axis(4, 5);
  return sh;
}

inline std::string fft_axes_text(const FftShape& s) {
  return std::string(fft_axis_name(s.x)) + " x " + fft_axis_name(s.y);
}
inline std::string fft_axes_text(const FftShape3& s) {
  return std::string(fft_axis_name(s.x)) + " x " + fft_axis_name(s.y) + " x " + fft_axis_name(s.z);
}

// lap p = f on the whole box (every interior cell), f and p in the grid layout
// (stride nx + 2; ghosts untouched). f is not modified.
template <class Real>
class FftPoissonCore {
 public:
  virtual ~FftPoissonCore() = default;
  virtual void solve(const Real* f, Real* p) = 0;
  virtual std::string describe() const = 0;
};

// One per backend and precision (fft_poisson_cpu.cpp, fft_poisson_cuda.cu).
std::unique_ptr<FftPoissonCore<float>> make_fft_core(CpuExec*, const FftShape&, float*);
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CpuExec*, const FftShape&, double*);
std::unique_ptr<FftPoissonCore<float>> make_fft_core(CudaExec*, const FftShape&, float*);
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CudaExec*, const FftShape&, double*);

// 3D (f and p in the Grid3 layout): FFTW's 3D real-to-real transforms on the CPU;
// on CUDA a cuFFT 3D real transform for periodic boxes and per-axis transforms
// from batched real FFTs otherwise (fft_poisson3.hpp).
std::unique_ptr<FftPoissonCore<float>> make_fft_core(CpuExec*, const FftShape3&, float*);
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CpuExec*, const FftShape3&, double*);
std::unique_ptr<FftPoissonCore<float>> make_fft_core(CudaExec*, const FftShape3&, float*);
std::unique_ptr<FftPoissonCore<double>> make_fft_core(CudaExec*, const FftShape3&, double*);

template <class Exec, class Real, class Shape>
std::unique_ptr<FftPoissonCore<Real>> make_fft_core(const Shape& s) {
  return make_fft_core(static_cast<Exec*>(nullptr), s, static_cast<Real*>(nullptr));
}

// The direct solver: one transform solve; the report gives the residual it reached
// (rounding only: about 1e-6 in float, 1e-13 in double, relative).
template <class Exec, class Real, int D = 2>
class FftPoissonSolver final : public PressureSolver<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  using Shape = std::conditional_t<D == 2, FftShape, FftShape3>;
  FftPoissonSolver(const PressureControl& c, const PoissonProblemOf<D>& pr)
      : c_(c), shape_(fft_shape(pr, false, "solver = 'fft'")), core_(make_fft_core<Exec, Real>(shape_)) {}

  SolveReport solve(const View& v) override {
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs);
    core_->solve(v.rhs, v.p);
    rep.iterations = 1;
    rep.residual = bnorm > 0 ? linalg::residual_norm<Exec>(v) / bnorm : 0.0;
    rep.converged = rep.residual <= c_.tol;
    return rep;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "FFT direct solve, " << fft_axes_text(shape_) << " transforms, " << core_->describe();
    return s.str();
  }

 private:
  PressureControl c_;
  Shape shape_;
  std::unique_ptr<FftPoissonCore<Real>> core_;
};

// The inverse of the obstacle-free box as a CG preconditioner (seed 004's idea, with
// the box's own side conditions instead of periodic ones): exact without obstacles.
template <class Exec, class Real, int D = 2>
class FftPreconditioner final : public Preconditioner<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  using Shape = std::conditional_t<D == 2, FftShape, FftShape3>;
  explicit FftPreconditioner(const PoissonProblemOf<D>& pr)
      : shape_(fft_shape(pr, true, "preconditioner = 'fft'")), core_(make_fft_core<Exec, Real>(shape_)) {}

  double apply(const View& v, const Real* s, Real* z) override {
    core_->solve(s, z);
    return linalg::sum_cells<Exec>(v, dot_on_fluid(v, s, z));
  }
  std::string describe() const override { return "FFT box inverse (" + fft_axes_text(shape_) + ")"; }

 private:
  Shape shape_;
  std::unique_ptr<FftPoissonCore<Real>> core_;
};

}  // namespace flowlua
