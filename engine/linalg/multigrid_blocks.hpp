// Multigrid on several MPI ranks (PoissonProblem::blocks; docs/mpi.md, "The pressure
// solvers"). The levels are planned on the whole grid, and the fine ones are cut into
// the blocks: each rank smooths, restricts and prolongs its block. Levels stay on the
// blocks while every block halves evenly, keeps kMinBlockSide cells a side and the
// level has more than pressure.multigrid_gather cells; the first level that does not
// is gathered: every rank gathers its right-hand side and iterate, runs the rest of
// the cycle on the whole level (redundantly, the same on every rank: the one-rank
// hierarchy from there down), and cuts its block's correction back. So a cycle
// computes on each cell what one rank computes there, and the iteration counts are
// those of one rank.
//
// The halo exchanges: every level on the blocks is a padded block
// (linalg/padded_block.hpp) whose ring is H = max(2 pre + 2, 2 post + 1) cells deep
// (6 for 2 + 2 sweeps; less where a block is narrower). The smoother, the residual
// and the restriction run on the ring too, and each array counts how many of its
// rings are fresh; an exchange happens only where an operation needs more. Per
// V-cycle and level on the blocks that is two exchanges, where a ring one cell deep
// needed eleven (2 per sweep, the residual's iterate, the residual, the correction):
//   down  the restricted right-hand side f (H rings: the pre-smoothing, 2 pre colours,
//         then the residual on one ring, which the restriction reads, run from a
//         correction of 0 and f without another exchange); on the finest level f is
//         the caller's right-hand side, exchanged once per solve, and the iterate's
//         exchange is the one before the residual norm;
//   up    the iterate after the coarse correction was added to the block (H rings:
//         the 2 post colours, leaving H - 2 post >= 1 ring for the next finer
//         level's interpolation, which reads across the coarse faces).
// The gathered level's correction comes back with all its rings (cut from the whole
// level). The solver works on its own padded copies of p and rhs (the caller's arrays
// have a ring one cell deep): copied in once per solve (per preconditioner
// application), p copied back at the end.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "linalg/block_halo.hpp"
#include "linalg/multigrid_hierarchy.hpp"
#include "linalg/padded_block.hpp"
#include "linalg/poisson_problem.hpp"
#include "parallel/gather.hpp"

namespace flowlua {

namespace mg {
// Several ranks: a level whose blocks would have fewer than kMinBlockSide cells a
// side is gathered, and so is the first with at most PressureControl::multigrid_gather
// cells. Each exchange costs tens of microseconds of latency whatever its size,
// about as much as a sweep of a 1024^2 level; a gathered level costs two allgathers
// and the rest of the cycle on every rank. Measured on 2 GPUs (weak scaling at 4096^2
// a GPU, docs/mpi.md, with eleven exchanges a level and cycle): 16384 cells (the
// default) beat 1024 by 8% and 65536 by 2%; 262144 was 20% slower.
constexpr int kMinBlockSide = 4;
}  // namespace mg

template <class Exec, class Real>
class BlockMultigrid {
 public:
  using View = PoissonView<Real>;

  BlockMultigrid(const PoissonProblem& pr, int pre, int post, long gather_cells) : pre_(pre), post_(post) {
    const PoissonBlocks& b = *pr.blocks;
    const std::vector<mg::LevelPlan> plans = mg::plan_levels(PoissonProblem{b.grid, b.nb, b.flags}, mg::kCoarsestCells);
    total_levels_ = int(plans.size());
    for (const mg::LevelPlan& p : plans) global_sizes_.push_back(std::to_string(p.grid.nx) + "x" + std::to_string(p.grid.ny));
    // Every rank's block on each level, while all of them halve evenly.
    std::vector<std::vector<ranks::Subdomain>> blocks(1, std::vector<ranks::Subdomain>(std::size_t(ranks::size())));
    for (int r = 0; r < ranks::size(); ++r)
      blocks[0][std::size_t(r)] = ranks::subdomain(b.block.decomposition, b.grid.nx, b.grid.ny, r);
    std::size_t gathered = plans.size() - 1;  // the coarsest is always gathered
    for (std::size_t l = 1; l < plans.size(); ++l) {
      const mg::LevelPlan& c = plans[l];
      bool even = true, small = c.grid.cells() <= gather_cells;
      std::vector<ranks::Subdomain> next = blocks.back();
      for (ranks::Subdomain& s : next) {
        if ((c.cx && (s.i0 % 2 || s.nx % 2)) || (c.cy && (s.j0 % 2 || s.ny % 2))) even = false;
        s = ranks::resized(s, c.cx ? s.i0 / 2 : s.i0, c.cy ? s.j0 / 2 : s.j0, c.cx ? s.nx / 2 : s.nx,
                           c.cy ? s.ny / 2 : s.ny, c.grid.nx, c.grid.ny);
        small = small || s.nx < mg::kMinBlockSide || s.ny < mg::kMinBlockSide;
      }
      if (!even) {  // the blocks of level l - 1 do not restrict to whole cells of level l
        gathered = l - 1;
        break;
      }
      blocks.push_back(next);
      if (small) {
        gathered = l;
        break;
      }
    }
    const int want = std::max(2 * pre + 2, 2 * post + 1);
    const int me = b.block.rank;
    levels_.resize(gathered + 1);
    for (std::size_t l = 0; l <= gathered; ++l) {
      Level& lv = levels_[l];
      const mg::LevelPlan& gp = plans[l];
      lv.pb = PaddedBlock<Exec, Real>(blocks[l][std::size_t(me)], gp.grid, gp.nb, gp.flags,
                                      padded_depth(blocks[l], want), halo_tag::kMultigrid + int(l));
      lv.cx = gp.cx;
      lv.cy = gp.cy;
      for (DeviceArray<Exec, Real>* a : {&lv.e, &lv.f, &lv.r}) {
        *a = DeviceArray<Exec, Real>(lv.pb.size());
        a->fill(Real(0));
      }
    }
    // The whole level `gathered` and the one-rank hierarchy from it down (plan_levels
    // from it repeats the rest of `plans`).
    const mg::LevelPlan& gl = plans[gathered];
    whole_ = std::make_unique<MultigridHierarchy<Exec, Real>>(PoissonProblem{gl.grid, gl.nb, gl.flags}, pre_, post_);
    whole_view_ = PoissonView<Real>{nullptr, nullptr, nullptr, gl.nb, Real(1 / (gl.grid.dx * gl.grid.dx)),
                                    Real(1 / (gl.grid.dy * gl.grid.dy))};
    whole_flags_ = DeviceArray<Exec, CellFlags>(gl.grid.size());
    whole_flags_.upload(gl.flags);
    whole_e_ = DeviceArray<Exec, Real>(gl.grid.size());
    whole_f_ = DeviceArray<Exec, Real>(gl.grid.size());
  }

  // The solver (MultigridSolver): load, then residual_norm and cycle in turn, then store.
  // p and rhs of the caller's view (the block's one-ring arrays) into the finest level.
  void load(const View& v) {
    Level& lv = levels_[0];
    lv.pb.load(v.p, lv.e.data());
    lv.pb.load(v.rhs, lv.f.data());
    lv.e_fresh = lv.f_fresh = 0;
    if (lv.pb.depth() > 1) lv.pb.exchange(lv.f.data(), lv.f_fresh);
  }
  // ||rhs - lap p|| over the fluid cells of every rank's block.
  double residual_norm() {
    Level& lv = levels_[0];
    lv.pb.ensure(lv.e.data(), lv.e_fresh, 1);
    return std::sqrt(lv.pb.sum(ResidualSquared<Real>{view(lv)}));
  }
  void cycle(MultigridCycle kind) { run(0, kind); }
  // p back into the caller's array, with its first ring (the neighbours' values).
  void store(const View& v) {
    Level& lv = levels_[0];
    lv.pb.ensure(lv.e.data(), lv.e_fresh, 1);
    lv.pb.store(lv.e.data(), v.p, true);
  }

  // The preconditioner: z (the block's cells) = one V-cycle from zero for lap z = s.
  void precondition(const Real* s, Real* z) {
    Level& lv = levels_[0];
    lv.pb.load(s, lv.f.data());
    lv.f_fresh = 0;
    lv.e.fill(Real(0));
    lv.e_fresh = lv.pb.depth();
    run(0, MultigridCycle::V);
    lv.pb.store(lv.e.data(), z, false);
  }

  std::string describe() const {
    std::ostringstream s;
    s << total_levels_ << " levels (";
    for (int l = 0; l < total_levels_; ++l) s << (l ? ", " : "") << global_sizes_[std::size_t(l)];
    s << "), ";
    const std::size_t on_blocks = levels_.size() - 1;
    if (on_blocks == 0)
      s << "the whole grid gathered to each of " << ranks::size() << " ranks every cycle (its blocks do not halve "
        << "evenly), ";
    else
      s << (on_blocks == 1 ? "the finest" : "the finest " + std::to_string(on_blocks)) << " on the blocks of "
        << ranks::size() << " ranks (halo " << levels_[0].pb.depth() << " cells deep), from "
        << global_sizes_[on_blocks] << " down gathered to every rank, ";
    s << whole_->smoothing();
    return s.str();
  }
  int levels() const { return total_levels_; }

 private:
  struct Level {
    PaddedBlock<Exec, Real> pb;         // the block, its flags and halo on this level
    bool cx = false, cy = false;        // halved from the finer level in x, y
    DeviceArray<Exec, Real> e, f, r;    // correction (the iterate on level 0), rhs, residual
    int e_fresh = 0, f_fresh = 0, r_fresh = 0;  // rings of each that are right
  };

  View view(Level& lv) { return lv.pb.view(lv.e.data(), lv.f.data()); }

  // One colour (c of the whole grid) of red-black Gauss-Seidel on the padded grid.
  void colour(Level& lv, int c) {
    lv.pb.ensure(lv.e.data(), lv.e_fresh, 1);
    lv.pb.colour_sweep(mg::GaussSeidelColour<Real>{view(lv), lv.pb.colour(c)});
    lv.e_fresh = std::min(lv.e_fresh, lv.f_fresh + 1) - 1;
  }
  void smooth(Level& lv, int sweeps, bool red_first) {
    for (int s = 0; s < sweeps; ++s) {
      colour(lv, red_first ? 0 : 1);
      colour(lv, red_first ? 1 : 0);
    }
  }

  void run(std::size_t l, MultigridCycle kind) {
    if (l + 1 == levels_.size()) {
      solve_gathered(kind);
      return;
    }
    Level& lv = levels_[l];
    Level& cl = levels_[l + 1];
    // With a ring deeper than one cell, one exchange of f lets the smoothing and
    // the residual run on the ring.
    if (lv.pb.depth() > 1) lv.pb.ensure(lv.f.data(), lv.f_fresh, lv.pb.depth());
    smooth(lv, pre_, true);
    // The restriction reads the residual one cell beyond the block, the residual
    // there reads the iterate two cells beyond.
    lv.pb.ensure(lv.e.data(), lv.e_fresh, std::min(2, lv.pb.depth()));
    lv.pb.for_padded(mg::Residual<Real>{view(lv), lv.r.data()});
    lv.r_fresh = std::min(lv.e_fresh - 1, lv.f_fresh);
    lv.pb.ensure(lv.r.data(), lv.r_fresh, 1);
    const mg::TransferShape t = shape(lv, cl);
    const std::size_t fo = offset(lv), co = offset(cl);
    Exec::for_each(1, cl.pb.nx(), 1, cl.pb.ny(), mg::Restrict<Real>{t, lv.r.data() + fo, cl.f.data() + co});
    cl.f_fresh = 0;
    descend(l, kind);
    // The interpolation reads the coarse correction across the coarse faces.
    cl.pb.ensure(cl.e.data(), cl.e_fresh, 1);
    Exec::for_each(1, lv.pb.nx(), 1, lv.pb.ny(), mg::ProlongAdd<Real>{t, cl.e.data() + co, lv.e.data() + fo});
    lv.e_fresh = 0;
    smooth(lv, post_, false);
  }

  // The coarse-grid correction of level l + 1 from e = 0 (everywhere: all its rings fresh).
  void descend(std::size_t l, MultigridCycle kind) {
    Level& cl = levels_[l + 1];
    cl.e.fill(Real(0));
    cl.e_fresh = cl.pb.depth();
    run(l + 1, kind);
    if (kind == MultigridCycle::F && l + 2 < std::size_t(total_levels_)) run(l + 1, MultigridCycle::V);
  }

  // The transfers index both grids from the block's first cell (1, 1): on a padded
  // block that cell lies further into the arrays, so the transfers get every array of
  // a level shifted by offset() (the strides are the padded grids').
  static std::size_t offset(const Level& lv) {
    return std::size_t(lv.pb.ox()) + std::size_t(lv.pb.oy()) * std::size_t(lv.pb.nb().nx + 2);
  }
  mg::TransferShape shape(const Level& f, const Level& c) const {
    return mg::TransferShape{f.pb.nb().nx, c.pb.nb().nx, c.pb.nb(), c.cx, c.cy, f.pb.flags() + offset(f),
                             c.pb.flags() + offset(c)};
  }

  // The gathered level: lap e = f on the whole level, on every rank, by the one-rank
  // hierarchy from there down; the block's part of e comes back with all its rings.
  void solve_gathered(MultigridCycle kind) {
    Level& g = levels_.back();
    whole_e_.upload(g.pb.gather_whole(g.e.download()));
    whole_f_.upload(g.pb.gather_whole(g.f.download()));
    View w = whole_view_;
    w.p = whole_e_.data();
    w.rhs = whole_f_.data();
    w.flags = whole_flags_.data();
    whole_->cycle(w, kind);
    g.e.upload(g.pb.cut_whole(whole_e_.download()));
    g.e_fresh = g.pb.depth();
  }

  int pre_, post_;
  std::vector<Level> levels_;  // on the blocks; the last one is the gathered level's block
  int total_levels_ = 0;       // with the gathered ones
  std::unique_ptr<MultigridHierarchy<Exec, Real>> whole_;
  PoissonView<Real> whole_view_{};
  DeviceArray<Exec, CellFlags> whole_flags_;
  DeviceArray<Exec, Real> whole_e_, whole_f_;
  std::vector<std::string> global_sizes_;  // of every level, for describe()
};

}  // namespace flowlua
