// Red-black successive over-relaxation (seed 002, eqs. 10-11): red cells ((i + j)
// even) are updated from black ones, then black from the new red, so each colour is
// one parallel launch. The residual is checked every `check_every` sweeps because
// it costs a pass of its own (the seed checks every 5).
#pragma once
#include <sstream>

#include "linalg/pressure_solver.hpp"

namespace flowlua {

template <class Real>
struct SorColourSweep {
  PoissonView<Real> v;
  Real omega;
  int colour;  // 0 red, 1 black
  // k counts cells of this colour along row j.
  FL_HD void operator()(int k, int j) const {
    int i = 1 + ((1 + j + colour) & 1) + 2 * k;
    if (i <= v.nb.nx) sor_update(v, omega, i, j);
  }
};

template <class Exec, class Real>
class RedBlackSOR final : public PressureSolver<Exec, Real> {
 public:
  explicit RedBlackSOR(const PressureControl& c) : c_(c) {}

  SolveReport solve(const PoissonView<Real>& v) override {
    const int nx = v.nb.nx, ny = v.nb.ny, half = (nx + 1) / 2;
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs);
    if (bnorm == 0) {  // lap p = 0 with these boundaries: p = 0 (up to a constant)
      Exec::fill(v.p, Real(0), std::size_t(nx + 2) * (ny + 2));
      rep.converged = true;
      return rep;
    }
    for (int it = 1; it <= c_.max_iter; ++it) {
      Exec::for_each(0, half - 1, 1, ny, SorColourSweep<Real>{v, Real(c_.omega), 0});
      Exec::for_each(0, half - 1, 1, ny, SorColourSweep<Real>{v, Real(c_.omega), 1});
      rep.iterations = it;
      if (it % c_.check_every == 0 || it == c_.max_iter) {
        rep.residual = linalg::residual_norm<Exec>(v) / bnorm;
        if (!(rep.residual > c_.tol)) {  // also stops on NaN; the caller sees it
          rep.converged = rep.residual <= c_.tol;
          break;
        }
      }
    }
    return rep;
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "red-black SOR (omega " << c_.omega << ", tol " << c_.tol << ", max_iter " << c_.max_iter
      << ", residual every " << c_.check_every << " sweeps)";
    return s.str();
  }

 private:
  PressureControl c_;
};

}  // namespace flowlua
