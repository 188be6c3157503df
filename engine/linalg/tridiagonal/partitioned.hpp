// The partitioned Thomas algorithm (a partition method in the manner of Wang, ACM TOMS
// 7 (1981) 170, with the interfaces solved by Thomas): each line is cut into chunks of
// kChunk rows so that many threads share one line, which a batch of few long lines
// needs to fill a GPU (one thread per line gives 4096 threads for 4096 lines: about a
// warp per SM, every step waiting on memory). With line l fastest across threads, every
// load of an interleaved batch (lines along y) is coalesced.
//
// Chunk p holds rows r0 .. r1 (r1 = its last row); its interface unknown is L_p = x_{r1},
// and its interior rows r0 .. r1-1 sit between L_{p-1} and L_p. Three phases:
//   1. per chunk: a downward and an upward elimination of the interior, with L_{p-1}
//      and L_p kept as parameters, give x_{r1-1} and x_{r0} as linear functions of
//      them; row r1 with x_{r1-1} substituted is the chunk's partial interface row.
//   2. per line: substituting the next chunk's x_{r0} completes the interface rows,
//      a tridiagonal system in L_0 .. L_{P-1}, solved by Thomas.
//   3. per chunk: Thomas on the interior with L_{p-1} and L_p known.
// Phases 1 and 3 read the rows (no coefficients stored); the chunks' 7 numbers each go
// through scratch, value q of chunk p of line l at ((q * P + p) * count + l).
#pragma once
#include "core/hd.hpp"
#include "linalg/tridiagonal/line_steps.hpp"

namespace flowlua::tridiag {

template <class Real>
struct ChunkScratch {
  Real* s;
  int P, count;
  FL_HD Real& at(int q, int p, int line) const { return s[(long(q) * P + p) * count + line]; }
};

// Phase 1 for chunk p of line `line` (n unknowns).
template <class Real, class Rows>
FL_HD void partitioned_chunk_reduce(const Rows& rows, int line, int p, int n, const ChunkScratch<Real>& s) {
  const int r0 = p * kChunk, r1 = (r0 + kChunk < n ? r0 + kChunk : n) - 1;
  Real a, b, c, d;
  // Downward: row k becomes x_k + cp x_{k+1} = dp + ep L_{p-1}; at k = r1-1, x_{k+1} = L_p.
  // bot: x_{r1-1} = g + pl L_{p-1} + pr L_p (chunk 0 has no L_{-1}: a_0 is ignored).
  Real bot_g = 0, bot_l = p > 0 ? Real(1) : Real(0), bot_r = 0;
  if (r1 > r0) {
    Real cp = 0, dp = 0, ep = 0;
    for (int k = r0; k < r1; ++k) {
      rows.row(line, k, a, b, c, d);
      const Real al = k == r0 ? Real(0) : a;  // coupling to the previous interior row
      const Real el = k == r0 && p > 0 ? -a : Real(0);
      const Real m = Real(1) / (b - al * cp);
      cp = c * m;
      dp = (d - al * dp) * m;
      ep = (el - al * ep) * m;
    }
    bot_g = dp, bot_l = ep, bot_r = -cp;
  }
  // Row r1 with x_{r1-1} substituted: A L_{p-1} + B L_p + C x_{r1+1} = D (C = 0 on the last row).
  rows.row(line, r1, a, b, c, d);
  if (r1 == 0) a = 0;
  s.at(0, p, line) = a * bot_l;
  s.at(1, p, line) = b + a * bot_r;
  s.at(2, p, line) = r1 == n - 1 ? Real(0) : c;
  s.at(3, p, line) = d - a * bot_g;
  // Upward: row k becomes x_k + ap x_{k-1} = dq + fq L_p; at k = r0, x_{k-1} = L_{p-1}.
  // top: x_{r0} = g + pl L_{p-1} + pr L_p (an empty interior: x_{r0} is L_p itself).
  Real top_g = 0, top_l = 0, top_r = 1;
  if (r1 > r0) {
    Real ap = 0, dq = 0, fq = 0;
    for (int k = r1 - 1; k >= r0; --k) {
      rows.row(line, k, a, b, c, d);
      if (k == 0) a = 0;
      const Real cl = k == r1 - 1 ? Real(0) : c;  // coupling to the next interior row
      const Real fl = k == r1 - 1 ? -c : Real(0);
      const Real m = Real(1) / (b - cl * ap);
      ap = a * m;
      dq = (d - cl * dq) * m;
      fq = (fl - cl * fq) * m;
    }
    top_g = dq, top_l = -ap, top_r = fq;
  }
  s.at(4, p, line) = top_g;
  s.at(5, p, line) = top_l;
  s.at(6, p, line) = top_r;
}

// Phase 2 for one line: the interface rows completed and solved; L_p goes to value 2
// of chunk p and to x_{r1} through rows.store.
template <class Real, class Rows>
FL_HD void partitioned_interfaces(const Rows& rows, int line, int n, const ChunkScratch<Real>& s) {
  const int P = s.P;
  Real cp = 0, dp = 0;
  for (int p = 0; p < P; ++p) {
    const Real A = s.at(0, p, line), C = s.at(2, p, line);
    Real B = s.at(1, p, line), D = s.at(3, p, line), Cr = 0;
    if (p + 1 < P) {  // x_{r1+1} = x_{r0} of chunk p+1
      B += C * s.at(5, p + 1, line);
      D -= C * s.at(4, p + 1, line);
      Cr = C * s.at(6, p + 1, line);
    }
    thomas_forward(p == 0 ? Real(0) : A, B, Cr, D, cp, dp);
    s.at(0, p, line) = cp;
    s.at(1, p, line) = dp;
  }
  Real x = dp;
  for (int p = P - 1; p >= 0; --p) {
    if (p < P - 1) x = s.at(1, p, line) - s.at(0, p, line) * x;
    s.at(2, p, line) = x;
    const int r1 = (p * kChunk + kChunk < n ? p * kChunk + kChunk : n) - 1;
    rows.store(line, r1, x);
  }
}

// Phase 3 for chunk p: Thomas on the interior rows with L_{p-1} and L_p known.
template <class Real, class Rows>
FL_HD void partitioned_chunk_solve(const Rows& rows, int line, int p, int n, const ChunkScratch<Real>& s) {
  const int r0 = p * kChunk, r1 = (r0 + kChunk < n ? r0 + kChunk : n) - 1;
  if (r1 == r0) return;
  const Real Lprev = p > 0 ? s.at(2, p - 1, line) : Real(0), Lp = s.at(2, p, line);
  Real cps[kChunk], dps[kChunk];
  Real a, b, c, d, cp = 0, dp = 0;
  for (int k = r0; k < r1; ++k) {
    rows.row(line, k, a, b, c, d);
    if (k == r0) d -= a * Lprev, a = 0;  // Lprev = 0 for chunk 0: a_0 ignored
    if (k == r1 - 1) d -= c * Lp, c = 0;
    thomas_forward(a, b, c, d, cp, dp);
    cps[k - r0] = cp, dps[k - r0] = dp;
  }
  Real x = dp;
  rows.store(line, r1 - 1, x);
  for (int k = r1 - 2; k >= r0; --k) {
    x = dps[k - r0] - cps[k - r0] * x;
    rows.store(line, k, x);
  }
}

}  // namespace flowlua::tridiag
