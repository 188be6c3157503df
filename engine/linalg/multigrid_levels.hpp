// The grid transfer and smoothing point functions of cell-centred geometric
// multigrid, and the host-side construction of the coarse levels.
//
// Coarse levels (Trottenberg, Oosterlee & Schueller, Multigrid, 2001, secs. 2.8 and 5.1):
// a coarse cell covers 2x2 fine cells (2x1 or 1x2 where only one direction can be
// halved: semi-coarsening, chosen in the direction of the smaller cell so that the
// coarse cells stay close to square and point smoothing keeps working). It is fluid
// when any child is. A coarse face is Coupled when any fine face under it is,
// otherwise Dirichlet when any is (an outflow side), otherwise Neumann. The coarse
// operator is the same five-point Laplacian rediscretised with 2h: it keeps the
// epsilon-flag form, so the smoother, residual and the rest of flowlua's stencil code
// serve every level unchanged. (Galerkin coarsening R A P with these transfers gives
// nine-point stencils and needs its own storage and kernels; with obstacles the
// rediscretised operator is a slightly worse coarse model, which the multigrid-
// preconditioned CG absorbs.)
//
// Transfers: prolongation is linear interpolation from the parent and its two
// nearest coarse neighbours, e_f = e_P + 1/4 (e_X - e_P) + 1/4 (e_Y - e_P)
// (weights 1/2, 1/4, 1/4; 3/4, 1/4 when only one direction is coarsened), where a
// neighbour across a Neumann face counts as e_P and across a Dirichlet face as -e_P,
// as the flags' ghost rules say. Restriction is its transpose scaled to an average
// (R = P^T / children). With R a multiple of P^T and red-black Gauss-Seidel run
// red-then-black before and black-then-red after, the V-cycle is a symmetric
// operator: a valid CG preconditioner. Orders m_P + m_R = 2 + 1 > 2 (the rule of
// Trottenberg et al. sec. 2.8.4 for second-order equations).
#pragma once
#include <vector>

#include "linalg/poisson_problem.hpp"
#include "linalg/poisson_stencil.hpp"

namespace flowlua {

namespace mg {

constexpr double kTransferWeight = 0.25;  // a in e_f = e_P + a (e_X - e_P) + a (e_Y - e_P)

// One colour of a red-black Gauss-Seidel sweep (SOR with omega = 1). k counts cells
// of this colour along row j; colour 0 is (i + j) even.
// In 3D the colour is the parity of i + j + kz.
template <class Real, int D = 2>
struct GaussSeidelColour {
  PoissonViewOf<Real, D> v;
  int colour;
  template <class... Z>
  FL_HD void operator()(int k, int j, Z... kz) const {
    int i = 1 + ((1 + j + (kz + ... + 0) + colour) & 1) + 2 * k;
    if (i > v.nb.nx) return;
    const std::size_t c = v.at(i, j, kz...);
    if (!is_fluid(v.flags[c])) return;
    Real off, diag;
    laplacian_parts(v, v.p, i, j, kz..., off, diag);
    if (diag > 0) v.p[c] = (off - v.rhs[c]) / diag;
  }
};

// r = rhs - lap p on fluid cells, 0 elsewhere.
template <class Real, int D = 2>
struct Residual {
  PoissonViewOf<Real, D> v;
  Real* r;
  template <class... I>
  FL_HD void operator()(I... ix) const {
    const std::size_t c = v.at(ix...);
    r[c] = is_fluid(v.flags[c]) ? v.rhs[c] - apply_laplacian(v, v.p, ix...) : Real(0);
  }
};

// What the two grids of a transfer share.
struct TransferShape {
  int fnx, cnx;               // interior widths (strides are + 2)
  Neighbours cnb;             // coarse neighbours (periodic wrap)
  bool cx, cy;                // halved in x, in y
  const CellFlags* fflags;
  const CellFlags* cflags;
  FL_HD std::size_t fat(int i, int j) const { return std::size_t(j) * (fnx + 2) + i; }
  FL_HD std::size_t cat(int i, int j) const { return std::size_t(j) * (cnx + 2) + i; }
};

// The coarse value the interpolation uses across coarse face `d` of parent (I, J).
template <class Real>
FL_HD Real across(const TransferShape& t, const Real* e, int I, int J, flag::Dir d) {
  const Real ep = e[t.cat(I, J)];
  switch (coupling(t.cflags[t.cat(I, J)], d)) {
    case flag::Coupled:
      if (d == flag::East) return e[t.cat(t.cnb.east(I), J)];
      if (d == flag::West) return e[t.cat(t.cnb.west(I), J)];
      if (d == flag::North) return e[t.cat(I, t.cnb.north(J))];
      return e[t.cat(I, t.cnb.south(J))];
    case flag::Dirichlet: return -ep;
    default: return ep;
  }
}

// e_fine += P e_coarse on fluid fine cells.
template <class Real>
struct ProlongAdd {
  TransferShape t;
  const Real* ec;
  Real* ef;
  FL_HD void operator()(int i, int j) const {
    const std::size_t f = t.fat(i, j);
    if (!is_fluid(t.fflags[f])) return;
    const int I = t.cx ? (i + 1) >> 1 : i, J = t.cy ? (j + 1) >> 1 : j;
    const Real ep = ec[t.cat(I, J)];
    const Real a = Real(kTransferWeight);
    Real val = ep;
    if (t.cx) val += a * (across(t, ec, I, J, (i & 1) ? flag::West : flag::East) - ep);
    if (t.cy) val += a * (across(t, ec, I, J, (j & 1) ? flag::South : flag::North) - ep);
    ef[f] += val;
  }
};

// f_coarse = R r_fine = P^T r_fine / children, on coarse cells (0 on non-fluid ones).
// The fine residual is 0 on non-fluid cells, so they need no test here.
template <class Real>
struct Restrict {
  TransferShape t;
  const Real* rf;
  Real* fc;
  FL_HD void operator()(int I, int J) const {
    const std::size_t cc = t.cat(I, J);
    const CellFlags cf = t.cflags[cc];
    if (!is_fluid(cf)) { fc[cc] = 0; return; }
    const Real a = Real(kTransferWeight);
    const int i0 = t.cx ? 2 * I - 1 : I, i1 = t.cx ? 2 * I : I;
    const int j0 = t.cy ? 2 * J - 1 : J, j1 = t.cy ? 2 * J : J;
    // Own children: weight 1 - a per halved direction, plus +a (Neumann) or -a
    // (Dirichlet) where the child's interpolation partner is the parent itself.
    auto self = [&](flag::Dir d) -> Real {
      unsigned k = coupling(cf, d);
      return k == flag::Neumann ? a : k == flag::Dirichlet ? -a : Real(0);
    };
    Real sum = 0;
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        Real w = 1;
        if (t.cx) w += -a + self((i & 1) ? flag::West : flag::East);
        if (t.cy) w += -a + self((j & 1) ? flag::South : flag::North);
        sum += w * rf[t.fat(i, j)];
      }
    // Children of coupled neighbours that interpolate from this parent: the row or
    // column of fine cells next to the shared coarse face.
    if (t.cx) {
      if (coupling(cf, flag::East) == flag::Coupled) {
        const int i = 2 * t.cnb.east(I) - 1;
        for (int j = j0; j <= j1; ++j) sum += a * rf[t.fat(i, j)];
      }
      if (coupling(cf, flag::West) == flag::Coupled) {
        const int i = 2 * t.cnb.west(I);
        for (int j = j0; j <= j1; ++j) sum += a * rf[t.fat(i, j)];
      }
    }
    if (t.cy) {
      if (coupling(cf, flag::North) == flag::Coupled) {
        const int j = 2 * t.cnb.north(J) - 1;
        for (int i = i0; i <= i1; ++i) sum += a * rf[t.fat(i, j)];
      }
      if (coupling(cf, flag::South) == flag::Coupled) {
        const int j = 2 * t.cnb.south(J);
        for (int i = i0; i <= i1; ++i) sum += a * rf[t.fat(i, j)];
      }
    }
    fc[cc] = sum / Real((t.cx ? 2 : 1) * (t.cy ? 2 : 1));
  }
};

// ---- host side: which levels, and their flags ----

struct LevelPlan {
  Grid grid;       // nx, ny, dx, dy of this level
  Neighbours nb;
  bool cx = false, cy = false;  // halved from the finer level in x, y
  std::vector<CellFlags> flags;
};

// Coarse flags from fine flags (see the header comment).
inline std::vector<CellFlags> coarsen_flags(const LevelPlan& fine, const Grid& cg, bool cx, bool cy) {
  std::vector<CellFlags> out(cg.size(), 0);
  const Grid& fg = fine.grid;
  for (int J = 1; J <= cg.ny; ++J)
    for (int I = 1; I <= cg.nx; ++I) {
      const int i0 = cx ? 2 * I - 1 : I, i1 = cx ? 2 * I : I;
      const int j0 = cy ? 2 * J - 1 : J, j1 = cy ? 2 * J : J;
      bool fluid = false;
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) fluid = fluid || is_fluid(fine.flags[fg.at(i, j)]);
      if (!fluid) continue;
      CellFlags f = flag::kFluid;
      for (unsigned d = 0; d < 4; ++d) {
        const flag::Dir dir = flag::Dir(d);
        // The fine cells along this coarse face.
        int a0 = i0, a1 = i1, b0 = j0, b1 = j1;
        if (dir == flag::East) a0 = i1;
        if (dir == flag::West) a1 = i0;
        if (dir == flag::North) b0 = j1;
        if (dir == flag::South) b1 = j0;
        bool coupled = false, dirichlet = false;
        for (int j = b0; j <= b1; ++j)
          for (int i = a0; i <= a1; ++i) {
            CellFlags ff = fine.flags[fg.at(i, j)];
            if (!is_fluid(ff)) continue;
            coupled = coupled || coupling(ff, dir) == flag::Coupled;
            dirichlet = dirichlet || coupling(ff, dir) == flag::Dirichlet;
          }
        unsigned k = coupled ? flag::Coupled : dirichlet ? flag::Dirichlet : flag::Neumann;
        f |= CellFlags(k << flag::shift(dir));
      }
      out[cg.at(I, J)] = f;
    }
  return out;
}

// The hierarchy: halve while the level has more than `min_cells` cells and a
// direction can be halved (even count, at least 4 cells; with periodic wrap the
// coarse count must stay even so that red-black colouring survives the wrap).
inline std::vector<LevelPlan> plan_levels(const PoissonProblem& pr, long min_cells) {
  std::vector<LevelPlan> levels(1);
  levels[0].grid = pr.grid;
  levels[0].nb = pr.nb;
  levels[0].flags = pr.flags;
  for (;;) {
    const LevelPlan& f = levels.back();
    const Grid& g = f.grid;
    if (g.cells() <= min_cells) break;
    const bool can_x = g.nx % 2 == 0 && g.nx >= 4 && (!f.nb.periodic_x || g.nx % 4 == 0);
    const bool can_y = g.ny % 2 == 0 && g.ny >= 4 && (!f.nb.periodic_y || g.ny % 4 == 0);
    const bool cx = can_x && (g.dx <= 1.5 * g.dy || !can_y);
    const bool cy = can_y && (g.dy <= 1.5 * g.dx || !can_x);
    if (!cx && !cy) break;
    LevelPlan c;
    c.grid = Grid::make(cx ? g.nx / 2 : g.nx, cy ? g.ny / 2 : g.ny, g.lx, g.ly);
    c.nb = Neighbours{c.grid.nx, c.grid.ny, f.nb.periodic_x, f.nb.periodic_y};
    c.cx = cx;
    c.cy = cy;
    c.flags = coarsen_flags(f, c.grid, cx, cy);
    levels.push_back(std::move(c));
  }
  return levels;
}

}  // namespace mg
}  // namespace flowlua
