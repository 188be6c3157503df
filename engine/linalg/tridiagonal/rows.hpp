// Where the rows of a batch come from and where the solution goes. An algorithm asks
// `rows.row(line, k, a, b, c, d)` and calls `rows.store(line, k, x)`; the rows may
// be read from arrays (ArrayRows) or generated from a stencil on the fly (a model's
// own functor, e.g. an ADI half step), so coefficients need not be stored.
#pragma once
#include "core/hd.hpp"
#include "linalg/tridiagonal/line_batch.hpp"
#include "linalg/tridiagonal/line_steps.hpp"

namespace flowlua::tridiag {

// Coefficients and right-hand side given as fields laid out as the batch says; x may
// be d (solved in place).
template <class Real>
struct ArrayRows {
  LineBatch lines;
  const Real *a, *b, *c, *d;
  Real* x;
  FL_HD void row(int line, int k, Real& ra, Real& rb, Real& rc, Real& rd) const {
    const long i = lines.index(line, k);
    ra = a[i], rb = b[i], rc = c[i], rd = d[i];
  }
  FL_HD void store(int line, int k, Real v) const { x[lines.index(line, k)] = v; }
};

// The tridiagonal matrix A' of Sherman-Morrison (line_steps.hpp) built from a cyclic
// system's rows, with the right-hand side d (correction = false) or u (true); the
// solution goes to out[k * count + line].
template <class Real, class Rows>
struct ShermanMorrisonRows {
  Rows rows;
  int n, count;
  bool correction;
  Real* out;
  FL_HD void row(int line, int k, Real& a, Real& b, Real& c, Real& d) const {
    rows.row(line, k, a, b, c, d);
    Real a0, b0, c0, d0;
    rows.row(line, 0, a0, b0, c0, d0);
    const Real gamma = -b0, beta = a0, alpha = k == n - 1 ? c : Real(0);
    if (k == 0) b -= gamma;
    if (k == n - 1) b -= alpha * beta / gamma;
    if (correction) d = k == 0 ? gamma : alpha;  // u = (gamma, 0, ..., 0, alpha)
    if (k == 0) a = 0;
    if (k == n - 1) c = 0;
  }
  FL_HD void store(int line, int k, Real v) const { out[long(k) * count + line] = v; }
};

// x = y - factor * z, element (line, k), written through the system's own store.
template <class Real, class Rows>
struct ShermanMorrisonCombine {
  Rows rows;
  int n, count;
  const Real *y, *z;
  FL_HD void operator()(int line, int k) const {
    Real a0, b0, c0, d0;
    rows.row(line, 0, a0, b0, c0, d0);
    const long last = long(n - 1) * count + line;
    const Real f = sherman_morrison_factor(y[line], y[last], z[line], z[last], a0, -b0);
    rows.store(line, k, y[long(k) * count + line] - f * z[long(k) * count + line]);
  }
};

}  // namespace flowlua::tridiag
