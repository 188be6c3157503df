// The 3D coarse levels and grid transfers of multigrid (multigrid_levels.hpp has the
// 2D ones and the reasoning; the rules are the same, per axis):
//   a coarse cell covers up to 2x2x2 fine cells (only the axes that can be halved,
//   and only those whose cells are not much larger than the smallest: semi-
//   coarsening); it is fluid when any child is; a coarse face is Coupled when any
//   fine face under it is, otherwise Dirichlet when any is, otherwise Neumann;
//   prolongation e_f = e_P + 1/4 sum over halved axes (e_X - e_P), X the coarse
//   neighbour on the child's side (exact for linear e in any number of axes; across
//   a Neumann face e_X = e_P, across a Dirichlet face -e_P);
//   restriction R = P^T / children, so the V-cycle stays symmetric (a valid CG
//   preconditioner).
// The smoother and the residual are the dimension-generic functors of
// multigrid_levels.hpp.
#pragma once
#include <vector>

#include "linalg/multigrid_levels.hpp"

namespace flowlua {
namespace mg {

struct TransferShape3 {
  int fnx, fny, cnx, cny;     // interior sizes (strides are + 2)
  Neighbours3 cnb;            // coarse neighbours (periodic wrap)
  bool c[3];                  // halved in x, y, z
  const CellFlags* fflags;
  const CellFlags* cflags;
  FL_HD std::size_t fat(int i, int j, int k) const {
    return (std::size_t(k) * (fny + 2) + std::size_t(j)) * (fnx + 2) + i;
  }
  FL_HD std::size_t cat(int i, int j, int k) const {
    return (std::size_t(k) * (cny + 2) + std::size_t(j)) * (cnx + 2) + i;
  }
  // The coarse neighbour of x[axis] in direction high (+) or low (-).
  FL_HD int step(int axis, int x, bool high) const {
    if (axis == 0) return high ? cnb.east(x) : cnb.west(x);
    if (axis == 1) return high ? cnb.north(x) : cnb.south(x);
    return high ? cnb.front(x) : cnb.back(x);
  }
};

FL_HD flag::Dir axis_dir(int axis, bool high) {
  return flag::Dir(2 * axis + (high ? 0 : 1));  // East/West, North/South, Front/Back
}

// The coarse value the interpolation uses across the face of parent P in `axis`.
template <class Real>
FL_HD Real across3(const TransferShape3& t, const Real* e, const int P[3], int axis, bool high) {
  const Real ep = e[t.cat(P[0], P[1], P[2])];
  switch (coupling(t.cflags[t.cat(P[0], P[1], P[2])], axis_dir(axis, high))) {
    case flag::Coupled: {
      int q[3] = {P[0], P[1], P[2]};
      q[axis] = t.step(axis, P[axis], high);
      return e[t.cat(q[0], q[1], q[2])];
    }
    case flag::Dirichlet: return -ep;
    default: return ep;
  }
}

// e_fine += P e_coarse on fluid fine cells.
template <class Real>
struct ProlongAdd3 {
  TransferShape3 t;
  const Real* ec;
  Real* ef;
  FL_HD void operator()(int i, int j, int k) const {
    const std::size_t f = t.fat(i, j, k);
    if (!is_fluid(t.fflags[f])) return;
    const int x[3] = {i, j, k};
    int P[3];
    for (int a = 0; a < 3; ++a) P[a] = t.c[a] ? (x[a] + 1) >> 1 : x[a];
    const Real ep = ec[t.cat(P[0], P[1], P[2])];
    const Real w = Real(kTransferWeight);
    Real val = ep;
    for (int a = 0; a < 3; ++a)  // an odd fine index is the low child: its partner is below
      if (t.c[a]) val += w * (across3(t, ec, P, a, (x[a] & 1) == 0) - ep);
    ef[f] += val;
  }
};

// f_coarse = R r_fine = P^T r_fine / children (0 on non-fluid coarse cells).
template <class Real>
struct Restrict3 {
  TransferShape3 t;
  const Real* rf;
  Real* fc;
  FL_HD void operator()(int I, int J, int K) const {
    const std::size_t cc = t.cat(I, J, K);
    const CellFlags cf = t.cflags[cc];
    if (!is_fluid(cf)) { fc[cc] = 0; return; }
    const Real w = Real(kTransferWeight);
    const int P[3] = {I, J, K};
    int lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = t.c[a] ? 2 * P[a] - 1 : P[a];
      hi[a] = t.c[a] ? 2 * P[a] : P[a];
    }
    auto self = [&](int axis, bool high) -> Real {
      unsigned c = coupling(cf, axis_dir(axis, high));
      return c == flag::Neumann ? w : c == flag::Dirichlet ? -w : Real(0);
    };
    Real sum = 0;
    for (int k = lo[2]; k <= hi[2]; ++k)
      for (int j = lo[1]; j <= hi[1]; ++j)
        for (int i = lo[0]; i <= hi[0]; ++i) {
          const int x[3] = {i, j, k};
          Real wt = 1;
          for (int a = 0; a < 3; ++a)
            if (t.c[a]) wt += -w + self(a, (x[a] & 1) == 0);
          sum += wt * rf[t.fat(i, j, k)];
        }
    // Children of coupled neighbours next to the shared face interpolate from here.
    for (int a = 0; a < 3; ++a) {
      if (!t.c[a]) continue;
      for (int side = 0; side < 2; ++side) {
        const bool high = side == 0;
        if (coupling(cf, axis_dir(a, high)) != flag::Coupled) continue;
        const int q = t.step(a, P[a], high);
        int l2[3] = {lo[0], lo[1], lo[2]}, h2[3] = {hi[0], hi[1], hi[2]};
        l2[a] = h2[a] = high ? 2 * q - 1 : 2 * q;  // the neighbour's child layer facing P
        for (int k = l2[2]; k <= h2[2]; ++k)
          for (int j = l2[1]; j <= h2[1]; ++j)
            for (int i = l2[0]; i <= h2[0]; ++i) sum += w * rf[t.fat(i, j, k)];
      }
    }
    fc[cc] = sum / Real((t.c[0] ? 2 : 1) * (t.c[1] ? 2 : 1) * (t.c[2] ? 2 : 1));
  }
};

// ---- host side ----

struct LevelPlan3 {
  Grid3 grid;
  Neighbours3 nb;
  bool c[3] = {false, false, false};  // halved from the finer level in x, y, z
  std::vector<CellFlags> flags;
};

inline std::vector<CellFlags> coarsen_flags3(const LevelPlan3& fine, const Grid3& cg, const bool c[3]) {
  std::vector<CellFlags> out(cg.size(), 0);
  const Grid3& fg = fine.grid;
  for (int K = 1; K <= cg.nz; ++K)
    for (int J = 1; J <= cg.ny; ++J)
      for (int I = 1; I <= cg.nx; ++I) {
        const int P[3] = {I, J, K};
        int lo[3], hi[3];
        for (int a = 0; a < 3; ++a) {
          lo[a] = c[a] ? 2 * P[a] - 1 : P[a];
          hi[a] = c[a] ? 2 * P[a] : P[a];
        }
        bool fluid = false;
        for (int k = lo[2]; k <= hi[2]; ++k)
          for (int j = lo[1]; j <= hi[1]; ++j)
            for (int i = lo[0]; i <= hi[0]; ++i) fluid = fluid || is_fluid(fine.flags[fg.at(i, j, k)]);
        if (!fluid) continue;
        CellFlags f = flag::kFluid;
        for (int a = 0; a < 3; ++a)
          for (int side = 0; side < 2; ++side) {
            const bool high = side == 0;
            const flag::Dir dir = axis_dir(a, high);
            int l2[3] = {lo[0], lo[1], lo[2]}, h2[3] = {hi[0], hi[1], hi[2]};
            if (high) l2[a] = hi[a];
            else h2[a] = lo[a];
            bool coupled = false, dirichlet = false;
            for (int k = l2[2]; k <= h2[2]; ++k)
              for (int j = l2[1]; j <= h2[1]; ++j)
                for (int i = l2[0]; i <= h2[0]; ++i) {
                  const CellFlags ff = fine.flags[fg.at(i, j, k)];
                  if (!is_fluid(ff)) continue;
                  coupled = coupled || coupling(ff, dir) == flag::Coupled;
                  dirichlet = dirichlet || coupling(ff, dir) == flag::Dirichlet;
                }
            const unsigned kind = coupled ? flag::Coupled : dirichlet ? flag::Dirichlet : flag::Neumann;
            f |= CellFlags(kind << flag::shift(dir));
          }
        out[cg.at(I, J, K)] = f;
      }
  return out;
}

// Halve while the level has more than min_cells cells and an axis can be halved
// (even count, at least 4 cells, a multiple of 4 across a periodic wrap), each
// halved axis's cells no more than 1.5 times larger than those of any other
// halvable axis (the 2D rule of plan_levels, per axis).
inline std::vector<LevelPlan3> plan_levels3(const PoissonProblem3& pr, long min_cells) {
  std::vector<LevelPlan3> levels(1);
  levels[0].grid = pr.grid;
  levels[0].nb = pr.nb;
  levels[0].flags = pr.flags;
  for (;;) {
    const LevelPlan3& f = levels.back();
    const Grid3& g = f.grid;
    if (g.cells() <= min_cells) break;
    const int n[3] = {g.nx, g.ny, g.nz};
    const double h[3] = {g.dx, g.dy, g.dz};
    const bool per[3] = {f.nb.periodic_x, f.nb.periodic_y, f.nb.periodic_z};
    bool can[3], c[3];
    for (int a = 0; a < 3; ++a) can[a] = n[a] % 2 == 0 && n[a] >= 4 && (!per[a] || n[a] % 4 == 0);
    bool any = false;
    for (int a = 0; a < 3; ++a) {
      c[a] = can[a];
      for (int b = 0; b < 3; ++b)
        if (b != a && can[b] && !(h[a] <= 1.5 * h[b])) c[a] = false;
      any = any || c[a];
    }
    if (!any) break;
    LevelPlan3 cl;
    cl.grid = Grid3::make(c[0] ? g.nx / 2 : g.nx, c[1] ? g.ny / 2 : g.ny, c[2] ? g.nz / 2 : g.nz, g.lx, g.ly, g.lz);
    cl.nb = Neighbours3{cl.grid.nx, cl.grid.ny, cl.grid.nz, per[0], per[1], per[2]};
    for (int a = 0; a < 3; ++a) cl.c[a] = c[a];
    cl.flags = coarsen_flags3(f, cl.grid, c);
    levels.push_back(std::move(cl));
  }
  return levels;
}

}  // namespace mg
}  // namespace flowlua
