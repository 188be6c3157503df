// The five-point Laplacian on fluid cells, with each neighbour coupled, Neumann
// (wall or obstacle: Griebel's epsilon flags, eq. 3.52) or Dirichlet p = 0 on the
// face between (outflow). Point functions shared by every pressure solver and both
// backends.
#pragma once
#include <cstddef>
#include <type_traits>

#include "core/flags.hpp"
#include "core/hd.hpp"

namespace flowlua {

template <class Real>
struct PoissonView {
  Real* p;                 // unknown (ghosts unused)
  const Real* rhs;         // right-hand side: lap p = rhs
  const CellFlags* flags;
  Neighbours nb;
  Real idx2, idy2;         // 1/dx^2, 1/dy^2

  FL_HD std::size_t at(int i, int j) const { return std::size_t(j) * (nb.nx + 2) + i; }
};

// The 3D view: the seven-point Laplacian on the Grid3 layout (core/grid3.hpp).
template <class Real>
struct PoissonView3 {
  Real* p;
  const Real* rhs;
  const CellFlags* flags;
  Neighbours3 nb;
  Real idx2, idy2, idz2;  // 1/dx^2, 1/dy^2, 1/dz^2

  FL_HD std::size_t plane() const { return std::size_t(nb.nx + 2) * std::size_t(nb.ny + 2); }
  FL_HD std::size_t at(int i, int j, int k) const {
    return std::size_t(k) * plane() + std::size_t(j) * (nb.nx + 2) + i;
  }
};

// The view of a dimension: the solvers are templates on D (2 or 3), and every point
// function below has a 2D and a 3D overload, so one solver source serves both and
// the 2D instantiation is the 2D code it always was.
template <class Real, int D>
using PoissonViewOf = std::conditional_t<D == 2, PoissonView<Real>, PoissonView3<Real>>;

// The stencil of one cell given its flag word and its four neighbours' values:
// lap p = offdiag - diag * p(i, j). Every pressure kernel, on either backend and in
// every variant (flagged, obstacle-free, fused), computes the Laplacian through this.
template <class Real>
FL_HD void stencil_parts(CellFlags f, Real pe, Real pw, Real pn, Real ps, Real idx2, Real idy2,
                         Real& offdiag, Real& diag) {
  if (f == flag::kFluid) {  // all four neighbours coupled: the common case, no table walk
    offdiag = idx2 * (pe + pw) + idy2 * (pn + ps);
    diag = 2 * (idx2 + idy2);
    return;
  }
  offdiag = 0;
  diag = 0;
  const Real c[4] = {idx2, idx2, idy2, idy2};
  const Real nbr[4] = {pe, pw, pn, ps};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int d = 0; d < 4; ++d) {
    unsigned k = coupling(f, flag::Dir(d));
    if (k == flag::Coupled) {
      offdiag += c[d] * nbr[d];
      diag += c[d];
    } else if (k == flag::Dirichlet) {
      diag += 2 * c[d];
    }
  }
}

// The seven-point stencil of one cell from its flag word and six neighbours, in the
// same form (lap p = offdiag - diag * p).
template <class Real>
FL_HD void stencil_parts3(CellFlags f, Real pe, Real pw, Real pn, Real ps, Real pf, Real pb, Real idx2, Real idy2,
                          Real idz2, Real& offdiag, Real& diag) {
  if (f == flag::kFluid) {  // all six neighbours coupled
    offdiag = idx2 * (pe + pw) + idy2 * (pn + ps) + idz2 * (pf + pb);
    diag = 2 * (idx2 + idy2 + idz2);
    return;
  }
  offdiag = 0;
  diag = 0;
  const Real c[6] = {idx2, idx2, idy2, idy2, idz2, idz2};
  const Real nbr[6] = {pe, pw, pn, ps, pf, pb};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int d = 0; d < 6; ++d) {
    unsigned k = coupling(f, flag::Dir(d));
    if (k == flag::Coupled) {
      offdiag += c[d] * nbr[d];
      diag += c[d];
    } else if (k == flag::Dirichlet) {
      diag += 2 * c[d];
    }
  }
}

// The stencil of cell (i, j[, k]) for a given flag word (the SOR sweeps take the
// word from a flag source of their own).
template <class Real>
FL_HD void stencil_at(const PoissonView<Real>& v, CellFlags f, const Real* p, int i, int j, Real& offdiag,
                      Real& diag) {
  stencil_parts(f, p[v.at(v.nb.east(i), j)], p[v.at(v.nb.west(i), j)], p[v.at(i, v.nb.north(j))],
                p[v.at(i, v.nb.south(j))], v.idx2, v.idy2, offdiag, diag);
}
template <class Real>
FL_HD void stencil_at(const PoissonView3<Real>& v, CellFlags f, const Real* p, int i, int j, int k, Real& offdiag,
                      Real& diag) {
  stencil_parts3(f, p[v.at(v.nb.east(i), j, k)], p[v.at(v.nb.west(i), j, k)], p[v.at(i, v.nb.north(j), k)],
                 p[v.at(i, v.nb.south(j), k)], p[v.at(i, j, v.nb.front(k))], p[v.at(i, j, v.nb.back(k))], v.idx2,
                 v.idy2, v.idz2, offdiag, diag);
}

// lap p at (i, j) = offdiag - diag * p(i, j); computes both parts.
template <class Real>
FL_HD void laplacian_parts(const PoissonView<Real>& v, const Real* p, int i, int j, Real& offdiag,
                           Real& diag) {
  const int ie = v.nb.east(i), iw = v.nb.west(i), jn = v.nb.north(j), js = v.nb.south(j);
  stencil_parts(v.flags[v.at(i, j)], p[v.at(ie, j)], p[v.at(iw, j)], p[v.at(i, jn)], p[v.at(i, js)],
                v.idx2, v.idy2, offdiag, diag);
}

template <class Real>
FL_HD void laplacian_parts(const PoissonView3<Real>& v, const Real* p, int i, int j, int k, Real& offdiag,
                           Real& diag) {
  stencil_at(v, v.flags[v.at(i, j, k)], p, i, j, k, offdiag, diag);
}

// The SOR value of a fluid cell from its stencil parts (Griebel eq. 3.44), written
// with omega / diag as one factor: kernels that know a cell is interior (diag the
// same everywhere) pass the factor computed once, and get the same bits.
template <class Real>
FL_HD Real sor_value_scaled(Real p_old, Real offdiag, Real rhs, Real omega, Real omega_over_diag) {
  return (1 - omega) * p_old + (offdiag - rhs) * omega_over_diag;
}
template <class Real>
FL_HD Real sor_value(Real p_old, Real offdiag, Real diag, Real rhs, Real omega) {
  return sor_value_scaled(p_old, offdiag, rhs, omega, omega / diag);
}

template <class Real>
FL_HD Real apply_laplacian(const PoissonView<Real>& v, const Real* p, int i, int j) {
  Real off, diag;
  laplacian_parts(v, p, i, j, off, diag);
  return off - diag * p[v.at(i, j)];
}

template <class Real>
FL_HD Real apply_laplacian(const PoissonView3<Real>& v, const Real* p, int i, int j, int k) {
  Real off, diag;
  laplacian_parts(v, p, i, j, k, off, diag);
  return off - diag * p[v.at(i, j, k)];
}

// One SOR update of fluid cell (i, j) (Griebel eq. 3.44 with epsilon flags).
template <class Real>
FL_HD void sor_update(const PoissonView<Real>& v, Real omega, int i, int j) {
  const std::size_t c = v.at(i, j);
  if (!is_fluid(v.flags[c])) return;
  Real off, diag;
  laplacian_parts(v, v.p, i, j, off, diag);
  if (diag == 0) return;  // no neighbour couples: cannot happen after build_flags
  v.p[c] = sor_value(v.p[c], off, diag, v.rhs[c], omega);
}

// Squared residual (rhs - lap p)^2 of a fluid cell, 0 elsewhere. Called with
// (i, j) in 2D, (i, j, k) in 3D (the functors below are written once for both).
template <class Real, int D = 2>
struct ResidualSquared {
  PoissonViewOf<Real, D> v;
  template <class... I>
  FL_HD double operator()(I... ix) const {
    if (!is_fluid(v.flags[v.at(ix...)])) return 0.0;
    double r = double(v.rhs[v.at(ix...)]) - double(apply_laplacian(v, v.p, ix...));
    return r * r;
  }
};

// v * v rounded once, never fused into a following addition (nvcc contracts a product
// and a sum into one fma where it can, so the same square could add differently in
// two kernels; the host compiler does not on x86-64): a squared FluidSum gives the
// same bits in every kernel that adds it up, the projection model's fused
// SubtractFluidMeanSquared among them.
FL_HD double square_rn(double v) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(v, v);
#else
  return v * v;
#endif
}

// Sum (or squared sum) of a field over fluid cells: means and norms.
template <class Real>
struct FluidSum {
  const Real* x;
  const CellFlags* flags;
  int stride;
  bool squared;
  std::size_t plane = 0;  // 3D: (nx + 2) (ny + 2)
  FL_HD double operator()(int i, int j) const {
    std::size_t c = std::size_t(j) * stride + i;
    if (!is_fluid(flags[c])) return 0.0;
    double v = x[c];
    return squared ? square_rn(v) : v;
  }
  FL_HD double operator()(int i, int j, int k) const {
    std::size_t c = std::size_t(k) * plane + std::size_t(j) * stride + i;
    if (!is_fluid(flags[c])) return 0.0;
    double v = x[c];
    return squared ? square_rn(v) : v;
  }
};

template <class Real>
struct SubtractOnFluid {
  Real* x;
  const CellFlags* flags;
  int stride;
  Real value;
  std::size_t plane = 0;  // 3D: (nx + 2) (ny + 2)
  FL_HD void operator()(int i, int j) const {
    std::size_t c = std::size_t(j) * stride + i;
    if (is_fluid(flags[c])) x[c] -= value;
  }
  FL_HD void operator()(int i, int j, int k) const {
    std::size_t c = std::size_t(k) * plane + std::size_t(j) * stride + i;
    if (is_fluid(flags[c])) x[c] -= value;
  }
};

}  // namespace flowlua
