// The coarsest multigrid level solved directly: a dense generalised inverse G of the
// level's operator, built once on the host (Cholesky of A = -lap in double) and
// applied on the backend as one gather and one matrix-vector launch, so a cycle
// never leaves the device.
//
// Singular levels (no Dirichlet face: pure Neumann or periodic; also any fluid region
// cut off from every outflow) have a zero pivot at the last cell of each connected
// region (every proper principal submatrix of a connected graph Laplacian is
// positive definite). That cell is pinned to 0: G is then the inverse on the other
// cells, symmetric, and solves every consistent right-hand side exactly (up to the
// constant, which the callers fix).
#pragma once
#include <cmath>
#include <vector>

#include "backend/device_array.hpp"
#include "linalg/multigrid_levels3.hpp"

namespace flowlua {
namespace mg {

// Cells beyond this are not solved directly (setup is O(n^3), each apply O(n^2)).
constexpr long kMaxDirectCells = 400;

struct DenseInverse {
  std::vector<int> cells;    // grid index of each fluid cell
  std::vector<double> neg_g; // n x n, row-major: e = neg_g f solves lap e = f
};

// G from A = -lap (n x n, row-major, destroyed): in-place Cholesky A = L L^T
// pinning vanishing pivots, then the columns of G from unit right-hand sides,
// stored negated (lap = -A). Shared by the 2D and 3D levels.
inline void invert_pinned(std::vector<double>& a, int n, std::vector<double>& neg_g) {
  // In-place Cholesky A = L L^T (lower triangle), pinning vanishing pivots.
  std::vector<char> pinned(n, 0);
  std::vector<double> diag0(n);
  for (int k = 0; k < n; ++k) diag0[k] = a[std::size_t(k) * n + k];
  for (int k = 0; k < n; ++k) {
    double piv = a[std::size_t(k) * n + k];
    for (int m = 0; m < k; ++m) piv -= a[std::size_t(k) * n + m] * a[std::size_t(k) * n + m];
    if (!(piv > 1e-10 * diag0[k])) {
      pinned[k] = 1;
      for (int m = 0; m <= k; ++m) a[std::size_t(k) * n + m] = 0;
      for (int r = k + 1; r < n; ++r) a[std::size_t(r) * n + k] = 0;
      continue;
    }
    const double l = std::sqrt(piv);
    a[std::size_t(k) * n + k] = l;
    for (int r = k + 1; r < n; ++r) {
      double s = a[std::size_t(r) * n + k];
      for (int m = 0; m < k; ++m) s -= a[std::size_t(r) * n + m] * a[std::size_t(k) * n + m];
      a[std::size_t(r) * n + k] = s / l;
    }
  }
  // Columns of G from unit right-hand sides; stored negated (lap = -A).
  neg_g.assign(std::size_t(n) * n, 0.0);
  std::vector<double> y(n);
  for (int col = 0; col < n; ++col) {
    if (pinned[col]) continue;
    for (int r = 0; r < n; ++r) {
      if (pinned[r]) { y[r] = 0; continue; }
      double s = r == col ? 1.0 : 0.0;
      for (int m = 0; m < r; ++m) s -= a[std::size_t(r) * n + m] * y[m];
      y[r] = s / a[std::size_t(r) * n + r];
    }
    for (int r = n - 1; r >= 0; --r) {
      if (pinned[r]) { y[r] = 0; continue; }
      double s = y[r];
      for (int m = r + 1; m < n; ++m) s -= a[std::size_t(m) * n + r] * y[m];
      y[r] = s / a[std::size_t(r) * n + r];
    }
    for (int r = 0; r < n; ++r) neg_g[std::size_t(r) * n + col] = -y[r];
  }
}

inline DenseInverse build_dense_inverse(const LevelPlan& lv) {
  const Grid& g = lv.grid;
  DenseInverse out;
  std::vector<int> number(g.size(), -1);
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i)
      if (is_fluid(lv.flags[g.at(i, j)])) {
        number[g.at(i, j)] = int(out.cells.size());
        out.cells.push_back(int(g.at(i, j)));
      }
  const int n = int(out.cells.size());
  const double idx2 = 1 / (g.dx * g.dx), idy2 = 1 / (g.dy * g.dy);
  std::vector<double> a(std::size_t(n) * n, 0.0);  // A = -lap
  for (int j = 1; j <= g.ny; ++j)
    for (int i = 1; i <= g.nx; ++i) {
      const int r = number[g.at(i, j)];
      if (r < 0) continue;
      const CellFlags f = lv.flags[g.at(i, j)];
      const int nbr[4] = {number[g.at(lv.nb.east(i), j)], number[g.at(lv.nb.west(i), j)],
                          number[g.at(i, lv.nb.north(j))], number[g.at(i, lv.nb.south(j))]};
      const double c[4] = {idx2, idx2, idy2, idy2};
      for (unsigned d = 0; d < 4; ++d) {
        unsigned k = coupling(f, flag::Dir(d));
        if (k == flag::Coupled) {
          a[std::size_t(r) * n + r] += c[d];
          a[std::size_t(r) * n + nbr[d]] -= c[d];
        } else if (k == flag::Dirichlet) {
          a[std::size_t(r) * n + r] += 2 * c[d];
        }
      }
    }
  invert_pinned(a, n, out.neg_g);
  return out;
}

// The 3D level's operator, the same way.
inline DenseInverse build_dense_inverse(const LevelPlan3& lv) {
  const Grid3& g = lv.grid;
  DenseInverse out;
  std::vector<int> number(g.size(), -1);
  for (int k = 1; k <= g.nz; ++k)
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i)
        if (is_fluid(lv.flags[g.at(i, j, k)])) {
          number[g.at(i, j, k)] = int(out.cells.size());
          out.cells.push_back(int(g.at(i, j, k)));
        }
  const int n = int(out.cells.size());
  const double c[6] = {1 / (g.dx * g.dx), 1 / (g.dx * g.dx), 1 / (g.dy * g.dy),
                       1 / (g.dy * g.dy), 1 / (g.dz * g.dz), 1 / (g.dz * g.dz)};
  std::vector<double> a(std::size_t(n) * n, 0.0);  // A = -lap
  for (int k = 1; k <= g.nz; ++k)
    for (int j = 1; j <= g.ny; ++j)
      for (int i = 1; i <= g.nx; ++i) {
        const int r = number[g.at(i, j, k)];
        if (r < 0) continue;
        const CellFlags f = lv.flags[g.at(i, j, k)];
        const int nbr[6] = {number[g.at(lv.nb.east(i), j, k)], number[g.at(lv.nb.west(i), j, k)],
                            number[g.at(i, lv.nb.north(j), k)], number[g.at(i, lv.nb.south(j), k)],
                            number[g.at(i, j, lv.nb.front(k))], number[g.at(i, j, lv.nb.back(k))]};
        for (unsigned d = 0; d < 6; ++d) {
          unsigned kind = coupling(f, flag::Dir(d));
          if (kind == flag::Coupled) {
            a[std::size_t(r) * n + r] += c[d];
            a[std::size_t(r) * n + nbr[d]] -= c[d];
          } else if (kind == flag::Dirichlet) {
            a[std::size_t(r) * n + r] += 2 * c[d];
          }
        }
      }
  invert_pinned(a, n, out.neg_g);
  return out;
}

template <class Real>
struct GatherCells {
  const int* cells;
  const Real* f;
  Real* packed;
  FL_HD void operator()(int m, int) const { packed[m] = f[cells[m]]; }
};

template <class Real>
struct DenseApply {
  const int* cells;
  const Real* neg_g;
  const Real* packed;
  Real* e;
  int n;
  FL_HD void operator()(int r, int) const {
    const Real* row = neg_g + std::size_t(r) * n;
    Real s = 0;
    for (int m = 0; m < n; ++m) s += row[m] * packed[m];
    e[cells[r]] = s;
  }
};

// The inverse in backend memory.
template <class Exec, class Real>
class CoarseDirectSolve {
 public:
  template <class Plan>  // LevelPlan or LevelPlan3
  explicit CoarseDirectSolve(const Plan& lv) {
    DenseInverse d = build_dense_inverse(lv);
    n_ = int(d.cells.size());
    cells_ = DeviceArray<Exec, int>(n_);
    cells_.upload(d.cells);
    g_ = DeviceArray<Exec, Real>(std::size_t(n_) * n_);
    g_.upload(std::vector<Real>(d.neg_g.begin(), d.neg_g.end()));
    packed_ = DeviceArray<Exec, Real>(n_);
  }
  // e = lap^-1 f on the level's fluid cells (other cells of e untouched).
  void solve(const Real* f, Real* e) {
    if (n_ == 0) return;
    Exec::for_each(0, n_ - 1, 0, 0, GatherCells<Real>{cells_.data(), f, packed_.data()});
    Exec::for_each(0, n_ - 1, 0, 0, DenseApply<Real>{cells_.data(), g_.data(), packed_.data(), e, n_});
  }
  int cells() const { return n_; }

 private:
  int n_ = 0;
  DeviceArray<Exec, int> cells_;
  DeviceArray<Exec, Real> g_, packed_;
};

}  // namespace mg
}  // namespace flowlua
