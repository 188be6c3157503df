#include "core/error.hpp"
#include "linalg/tridiagonal/batch_solve.hpp"
#include "linalg/tridiagonal/solve_cpu.hpp"

namespace flowlua::tridiag {

template <class Real>
void solve_arrays_cpu(Algorithm alg, const LineBatch& b, bool cyclic, const Real* a, const Real* bd, const Real* c,
                      const Real* d, Real* x, Real* scratch) {
  std::string why;
  if (!supports(alg, b, cyclic, false, int(sizeof(Real)), &why))
    throw BackendError(std::string("tridiagonal ") + algorithm_name(alg) + ": " + why);
  const ArrayRows<Real> rows{b, a, bd, c, d, x};
  if (cyclic) cpu::solve_cyclic<Real>(alg, b, rows, scratch);
  else cpu::solve<Real>(alg, b, rows, scratch);
}

template void solve_arrays_cpu<float>(Algorithm, const LineBatch&, bool, const float*, const float*, const float*,
                                      const float*, float*, float*);
template void solve_arrays_cpu<double>(Algorithm, const LineBatch&, bool, const double*, const double*,
                                       const double*, const double*, double*, double*);

#ifndef FLOWLUA_HAVE_CUDA
template <class Real>
void solve_arrays_cuda(Algorithm, const LineBatch&, bool, const Real*, const Real*, const Real*, const Real*, Real*,
                       Real*) {
  throw BackendError("this flowlua was built without CUDA");
}
template void solve_arrays_cuda<float>(Algorithm, const LineBatch&, bool, const float*, const float*, const float*,
                                       const float*, float*, float*);
template void solve_arrays_cuda<double>(Algorithm, const LineBatch&, bool, const double*, const double*,
                                        const double*, const double*, double*, double*);
#endif

}  // namespace flowlua::tridiag
