// The remaining point functions of one projection step: the Poisson right-hand side
// (seed 002 eq. 8), the velocity correction (eqs. 6-7, with dt/dy in eq. 7), and the
// largest velocity over cell size that sets the adaptive time step (eq. 9).
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "linalg/poisson_stencil.hpp"
#include "models/projection/dt_rule.hpp"
#include "models/projection/fields.hpp"
#include "models/projection/immersed_mass.hpp"

namespace flowlua::projection {

// rhs = div(F, G) / dt on fluid cells. With immersed bodies (kSources), a cell with a
// free face keeps the cut-cell balance of immersed_mass.hpp; a source cell (no free
// face, core/immersed.hpp) keeps no continuity: its rhs is the Laplacian of p^n over
// its unknown faces, so that the projection leaves its prescribed velocities as they
// are (at a steady state exactly).
template <class Real, class Cells, bool kSources = false>
struct PressureRhs {
  State<Real> s;
  Real inv_dt;
  Cells cells;
  const std::int8_t* source = nullptr;
  ImmersedMass<Real> mass{};
  const double* step = nullptr;  // kernels.dt = "device": 1/dt from step[1] (dt_rule.hpp)
  FL_HD void operator()(int i, int j) const {
    const std::size_t c = s.at(i, j);
    if (!is_fluid(cells.at(i, j))) { s.rhs[c] = 0; return; }
    const Real idt = step ? Real(step[1]) : inv_dt;
    if constexpr (kSources) {
      if (!source[c]) {
        s.rhs[c] = mass.rhs_dt(s, cells, Real(1) / idt, i, j) * idt;
      } else {
        const int iw = s.nb.west(i), js = s.nb.south(j);
        const Real pc = s.p[c];
        const Real ge = u_unknown(cells, s.nb, i, j) ? (s.p[s.at(s.nb.east(i), j)] - pc) : Real(0);
        const Real gw = u_unknown(cells, s.nb, iw, j) ? (pc - s.p[s.at(iw, j)]) : Real(0);
        const Real gn = v_unknown(cells, s.nb, i, j) ? (s.p[s.at(i, s.nb.north(j))] - pc) : Real(0);
        const Real gs = v_unknown(cells, s.nb, i, js) ? (pc - s.p[s.at(i, js)]) : Real(0);
        s.rhs[c] = (ge - gw) * s.idx * s.idx + (gn - gs) * s.idy * s.idy;
      }
      return;
    }
    const Real div = (s.f[c] - s.f[s.at(s.nb.west(i), j)]) * s.idx + (s.g[c] - s.g[s.at(i, s.nb.south(j))]) * s.idy;
    s.rhs[c] = div * idt;
  }
};

// u = F - dt dp/dx, v = G - dt dp/dy on unknown faces; returns the largest change
// |u_new - u_old| (the step drops it; the steady test compares velocities over an
// interval: sim/steady.hpp). PReal = double (pressure.mixed, float fields): the
// gradient of the double pressure `pd`, the result rounded once to Real; otherwise
// the state's own p, exactly as always.
template <class Real, class Cells, class PReal = Real>
struct VelocityCorrection {
  State<Real> s;
  Real dt;
  Cells cells;
  const PReal* pd = nullptr;
  const double* step = nullptr;  // kernels.dt = "device": dt from step[0] (dt_rule.hpp)
  FL_HD PReal pressure(std::size_t k) const {
    if constexpr (std::is_same_v<PReal, Real>) return s.p[k];
    else return pd[k];
  }
  FL_HD double operator()(int i, int j) const {
    const std::size_t c = s.at(i, j);
    // Loads first, stores last (see MomentumStage).
    const bool eu = u_unknown(cells, s.nb, i, j), ev = v_unknown(cells, s.nb, i, j);
    const Real dt = step ? Real(step[0]) : this->dt;
    const PReal pc = pressure(c);
    const Real un = eu ? Real(s.f[c] - dt * s.idx * (pressure(s.at(s.nb.east(i), j)) - pc)) : Real(0);
    const Real vn = ev ? Real(s.g[c] - dt * s.idy * (pressure(s.at(i, s.nb.north(j))) - pc)) : Real(0);
    const Real uo = s.u[c], vo = s.v[c];
    double change = 0;
    if (eu) {
      change = un - uo;
      s.u[c] = un;
    }
    if (ev) {
      const double dv = double(vn) - double(vo);
      s.v[c] = vn;
      change = (change < 0 ? -change : change) > (dv < 0 ? -dv : dv) ? change : dv;
    }
    return change < 0 ? -change : change;
  }
};

// max(|u|/dx, |v|/dy) at a cell: the inverse of the convective time-step limit.
// A non-finite velocity returns NaN, which the reduction carries to the host.
template <class Real>
struct InverseConvectiveTime {
  State<Real> s;
  FL_HD double operator()(int i, int j) const {
    const double a = double(s.u[s.at(i, j)]) / s.dx, b = double(s.v[s.at(i, j)]) / s.dy;
    if (a - a != 0 || b - b != 0) return std::numeric_limits<double>::quiet_NaN();
    const double aa = a < 0 ? -a : a, bb = b < 0 ? -b : b;
    return aa > bb ? aa : bb;
  }
};

// u^2 + v^2 from the two faces of a cell: with the donor-cell weight gamma small,
// explicit central advection is stable only for dt <= 2 nu / |u|^2 (the cell
// Peclet limit of forward-time central-space schemes), so the time step needs it.
template <class Real>
struct SpeedSquared {
  State<Real> s;
  FL_HD double operator()(int i, int j) const {
    const double a = s.u[s.at(i, j)], b = s.v[s.at(i, j)];
    return a * a + b * b;
  }
};

// b = To(a) at every cell of the layout, ghosts too: pressure.mixed's copies between
// the float state and the double solve.
template <class From, class To>
struct CopyAs {
  const From* a;
  To* b;
  int stride;
  FL_HD void operator()(int i, int j) const {
    const std::size_t c = std::size_t(j) * stride + i;
    b[c] = To(a[c]);
  }
};

// x -= sum / count on fluid cells, with the sum left in backend memory by a
// reduction (Exec::reduce_sum_into): removing a mean costs no host round trip. The
// product is rounded before the subtraction (mul_rn, never fused): the step that
// removes the rhs's mean inside the SOR's first reduction (SubtractFluidMeanSquared)
// gives the same bits.
template <class Real>
struct SubtractFluidMean {
  Real* x;
  const CellFlags* flags;
  int stride;
  const double* sum;
  double inv_count;
  FL_HD void operator()(int i, int j) const {
    const std::size_t c = std::size_t(j) * stride + i;
    if (is_fluid(flags[c])) x[c] -= Real(mul_rn(*sum, inv_count));
  }
};

// Fewer launches in a step on the device (issue 12): two reductions whose cells also
// write. A reduction visits each cell of its range once (Exec::reduce_*), so the
// writes are those of the for_each they replace, and the values added are those of
// the FluidSum they replace, in the same reduction: the same bits as the two launches.
//
// f at the cell, then FluidSum{x, flags, stride, false} there (x: what f wrote): the
// rhs and its sum over the fluid cells in one launch.
template <class Real, class F>
struct WithFluidValue {
  F f;
  const Real* x;
  const CellFlags* flags;
  int stride;
  FL_HD double operator()(int i, int j) const {
    f(i, j);
    return FluidSum<Real>{x, flags, stride, false}(i, j);
  }
};

// SubtractFluidMean at the cell, then FluidSum{x, flags, stride, true} there: the
// rhs's mean removed in the SOR solve's first reduction, ||rhs||^2
// (RedBlackSOR::solve_device's norm2), instead of a launch of its own.
template <class Real>
struct SubtractFluidMeanSquared {
  Real* x;
  const CellFlags* flags;
  int stride;
  const double* sum;
  double inv_count;
  FL_HD double operator()(int i, int j) const {
    SubtractFluidMean<Real>{x, flags, stride, sum, inv_count}(i, j);
    return FluidSum<Real>{x, flags, stride, true}(i, j);
  }
};

}  // namespace flowlua::projection
