// Red-black successive over-relaxation (seed 002, eqs. 10-11): red cells ((i + j)
// even) are updated from black ones, then black from the new red.
//
// Variants (chosen by the kernel plan, see models/projection/projection_kernels.cpp):
//   two-colour  one launch per colour, in place; the residual is a pass of its own,
//               every `check_every` sweeps (the seed checks every 5). Flags come
//               from the flag array or, without obstacles, from the position.
//   fused       (CUDA) one launch per sweep: both colours, and the residual of the
//               sweep's input, in one pass over p and rhs (rbsor_fused.cuh). It
//               reads p and writes a second buffer, so a sweep moves the fewest
//               bytes a sweep can: p and rhs read once, p written once.
//   block       (CUDA, small grids) the sweeps between two residual checks in one
//               launch of one thread block, p in shared memory, in place
//               (rbsor_block.cuh); otherwise the two-colour variant (same checks).
//   tiled       (CUDA) the fused sweep's result through a shared-memory tile
//               (rbsor_tile.cuh): 16-byte asynchronous loads, the same bits.
// Every variant computes the same stencil (stencil_parts) on the same cells in the
// same order of colours; they differ in memory traffic only. On several MPI ranks
// the two-colour variant (flags from the array) runs on a padded block
// (linalg/padded_block.hpp): copies of p and rhs with a ring up to 2 check_every + 1
// cells deep (at most 16, at most the narrowest block), each colour computed on the
// ring too, so that one exchange serves as many colours as the ring is deep (one
// exchange per check_every sweeps or so, where a ring one cell deep needed two per
// sweep and one per residual); the sweeps are the same as on one rank.
//
// solve() reads the norms back and decides on the host; solve_device() (2D, one rank)
// decides in backend memory (linalg/sor_device.hpp): the same sweeps and result
// without a host round trip per check.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

#include "backend/step_graph.hpp"
#include "backend/lagged_read.hpp"
#include "backend/launch.hpp"
#include "linalg/padded_block.hpp"
#include "linalg/rbsor_block.hpp"
#include "linalg/poisson_problem.hpp"
#include "linalg/pressure_solver.hpp"
#include "linalg/sor_device.hpp"

namespace flowlua {

// Which kernels a RedBlackSOR runs; the plan names them.
enum class SorVariant { TwoColour, TwoColourOpen, Fused, FusedOpen, Block, BlockOpen, Tiled, TiledOpen };

// One colour of a sweep; k counts cells of this colour along row j (of plane kz in
// 3D, where the colour is the parity of i + j + kz).
template <class Real, class Cells, int D = 2>
struct SorColourSweep {
  PoissonViewOf<Real, D> v;
  Cells cells;
  Real omega;
  int colour;  // 0 red, 1 black
  template <class... Z>
  FL_HD void operator()(int k, int j, Z... kz) const {
    const int i = 1 + ((1 + j + (kz + ... + 0) + colour) & 1) + 2 * k;
    if (i > v.nb.nx) return;
    const CellFlags f = cells.at(i, j, kz...);
    if (!is_fluid(f)) return;
    Real off, diag;
    stencil_at(v, f, v.p, i, j, kz..., off, diag);
    if (diag == 0) return;  // no neighbour couples: cannot happen after build_flags
    v.p[v.at(i, j, kz...)] = sor_value(v.p[v.at(i, j, kz...)], off, diag, v.rhs[v.at(i, j, kz...)], omega);
  }
};

// The fused sweep exists only on the CUDA backend; rbsor_fused.cuh specialises this.
template <class Exec>
struct FusedSorSweep {
  static constexpr bool available = false;
};
// Its shared-memory tile version (rbsor_tile.cuh), where FusedSorSweep is available.
template <class Exec>
struct TiledSorSweep {};

// One member's fused sweep in a batch (FusedSorSweep::run_batch): pin -> pout, and
// with `residual` the squared residual of pin added to *res2.
template <class Real, class Cells>
struct FusedSweepArgs {
  const Real* pin;
  Real* pout;
  const Real* rhs;
  Cells cells;
  Real idx2, idy2, omega;
  Real wd;  // omega / (2 (idx2 + idy2)): the interior cells' omega / diag, as launch() has it
  double* res2;
  bool residual;
};

}  // namespace flowlua

#if defined(__CUDACC__)
#include "linalg/rbsor_fused.cuh"
#include "linalg/rbsor_block.cuh"
#include "linalg/rbsor_tile.cuh"
#endif

namespace flowlua {

template <class Exec, class Real, int D = 2>
class RedBlackSOR final : public PressureSolver<Exec, Real, D> {
 public:
  using View = PoissonViewOf<Real, D>;
  explicit RedBlackSOR(const PressureControl& c) : c_(c) {}
  RedBlackSOR(const PressureControl& c, const PoissonProblemOf<D>& pr)
      : c_(c), halo_(block_halo<Exec, Real>(pr, halo_tag::kSor)) {
    if constexpr (D == 2)
      if (pr.blocks) {
        const PoissonBlocks& b = *pr.blocks;
        std::vector<ranks::Subdomain> all(static_cast<std::size_t>(ranks::size()));
        for (int r = 0; r < ranks::size(); ++r)
          all[std::size_t(r)] = ranks::subdomain(b.block.decomposition, b.grid.nx, b.grid.ny, r);
        const int want = std::min(16, 2 * std::max(1, c.check_every) + 1);
        pb_ = std::make_unique<PaddedBlock<Exec, Real>>(b.block, b.grid, b.nb, b.flags, padded_depth(all, want),
                                                        halo_tag::kSor);
        pp_ = DeviceArray<Exec, Real>(pb_->size());
        prhs_ = DeviceArray<Exec, Real>(pb_->size());
        pp_.fill(Real(0));
        prhs_.fill(Real(0));
      }
  }

  // Picks the kernels. The open variants need the domain's position-computed flags
  // (core/flags.hpp), the fused ones a CUDA build and no periodic side.
  void use_variant(SorVariant v, const OpenDomainFlags& open = {}) {
    variant_ = v;
    open_ = open;
  }
  SorVariant variant() const { return variant_; }

  // Whether solve_device applies (2D, one rank).
  bool device_stop() const {
    if constexpr (D == 2) return !halo_.on();
    return false;
  }
  // The solve with its convergence decided in backend memory, in the caller's slots
  // s[sor_slot::...] (linalg/sor_device.hpp). No host read, but that of the host-driven
  // loop over bodies of sweeps, which waits for kContinue one body late (none on the
  // CPU backend, where it is there at once; none with one body; none inside a CUDA
  // graph capture, where the loop is a conditional while node, backend/step_graph.hpp).
  // The same sweeps, checks, result and report as solve(): report(s) reads it.
  void solve_device(const View& v, double* s) {
    if constexpr (D == 2) solve_device(v, s, FluidSum<Real>{v.rhs, v.flags, v.nb.nx + 2, true});
  }
  // The same with the cell function of the first reduction, ||rhs||^2, given: norm2(i, j)
  // returns what FluidSum{v.rhs, v.flags, nx + 2, true} returns at (i, j) once it has
  // changed rhs there if it does (the projection model removes the rhs's mean in it:
  // SubtractFluidMeanSquared, one launch less).
  template <class Norm2>
  void solve_device(const View& v, double* s, const Norm2& norm2) {
    if constexpr (D == 2) {
      using namespace sor_slot;
      const int nx = v.nb.nx, ny = v.nb.ny, mi = c_.max_iter;
      // Each reduction is one launch with the one-thread stage after it (the same bits
      // as the reductions of solve()).
      Exec::reduce_sum_into_then(1, nx, 1, ny, norm2, s + kBnorm2, SorStart{s});
      const int per_body = body_length();
      const int bodies = mi > 0 ? (mi + per_body - 1) / per_body : 0;
      if (fused()) alt(v);  // allocated, its ghosts copied, before any capture
      if (bodies == 1) {
        body(v, s, 0, true);
      } else if (bodies > 1 && GraphLoop<Exec>::capturing()) {
        GraphLoop<Exec>::run_while(
            [&] {
              body(v, s, -1, false);
              Exec::for_each(0, 0, 0, 0, SorEndBody{s, per_body, mi});
            },
            s + kContinue);
      } else if (bodies > 1) {
        // Body b + 1 is queued before the host waits for body b's verdict (on CUDA):
        // the device never waits for the host; a body after the stop does nothing.
        const int lag = LaggedRead<Exec>::kLag > 0 ? 1 : 0;
        bool stop = false;
        for (int b = 0; b < bodies && !stop; ++b) {
          body(v, s, b, true);
          Exec::for_each(0, 0, 0, 0, SorEndBody{s, per_body, mi});
          continue_.post(s + kContinue);
          while (continue_.pending() > lag) stop = *continue_.take(true) == 0 || stop;
        }
        continue_.discard();
      }
      if (fused()) {
        View last = v;  // iterate max_iter: the result unless a check stopped earlier
        if (mi % 2) last.p = alt_.data();
        Exec::reduce_sum_into_then(1, nx, 1, ny, ResidualSquared<Real>{last}, s + kFinal2, NothingAfter{});
        Exec::for_each(0, nx + 1, 0, ny + 1, SorFinish<Real>{v.p, alt_.data(), s, nx + 2, mi});
      } else {
        Exec::for_each(0, nx + 1, 0, ny + 1, SorFinish<Real>{v.p, nullptr, s, nx + 2, mi});
      }
    }
  }
  // For a batch's fused sweeps (projection_batch.hpp): whether this solver sweeps
  // fused, and its second buffer (allocated, its ghosts copied, on first use).
  // The block variant's members sweep fused there too (one launch per sweep for the
  // whole batch; the same iterates checked as alone, results to round-off).
  bool sweeps_fused() const { return fused() || block(); }
  Real* second_buffer(const View& v) { return alt(v); }
  const OpenDomainFlags& open_flags() const { return open_; }
  double omega() const { return c_.omega; }

  // The report of solve_device from a host copy of its slots.
  static SolveReport report(const double* s, double tol) {
    SolveReport r;
    r.iterations = int(s[sor_slot::kIterations]);
    r.residual = s[sor_slot::kResidual];
    r.converged = r.residual <= tol;
    return r;
  }

  SolveReport solve(const View& v) override {
    SolveReport rep;
    const double bnorm = linalg::fluid_norm<Exec>(v, v.rhs, halo_);
    if (bnorm == 0) {  // lap p = 0 with these boundaries: p = 0 (up to a constant)
      Exec::fill(v.p, Real(0), linalg::field_size(v));
      rep.converged = true;
      return rep;
    }
    if (fused()) return solve_fused(v, bnorm);
    if (block()) return solve_block(v, bnorm);
    if (pb_) return solve_padded(v, bnorm);
    for (int it = 1; it <= c_.max_iter; ++it) {
      sweep_in_place(v);
      rep.iterations = it;
      if (it % c_.check_every == 0 || it == c_.max_iter) {
        rep.residual = linalg::residual_norm<Exec>(v, halo_) / bnorm;
        if (!(rep.residual > c_.tol)) break;  // also stops on NaN; the caller sees it
      }
    }
    rep.converged = rep.residual <= c_.tol;
    return rep;
  }

  // n sweeps with no residual check (the benchmark harness times pairs of them: the
  // fused variant ping-pongs, so an even number ends in v.p with no copy).
  void sweeps(const View& v, int n) {
    if (pb_) {
      load(v);
      for (int k = 0; k < n; ++k) padded_sweep();
      store(v);
      return;
    }
    if (block()) {
      block_sweeps(v, n, SorGate{});
      return;
    }
    if (!fused()) {
      for (int k = 0; k < n; ++k) sweep_in_place(v);
      return;
    }
    View in = v;
    Real* out = alt(v);
    for (int k = 0; k < n; ++k) {
      fused_sweep(in, out, nullptr);
      std::swap(in.p, out);
    }
    if (in.p != v.p) copy(in.p, v.p, v);
  }

  std::string describe() const override {
    std::ostringstream s;
    s << "red-black SOR (omega " << c_.omega << ", tol " << c_.tol << ", max_iter " << c_.max_iter
      << ", residual every " << c_.check_every << " sweeps)";
    return s.str();
  }

 private:
  bool fused() const {
    if constexpr (D == 2 && FusedSorSweep<Exec>::available)
      return !halo_.on() && (variant_ == SorVariant::Fused || variant_ == SorVariant::FusedOpen ||
                             variant_ == SorVariant::Tiled || variant_ == SorVariant::TiledOpen);
    return false;
  }

  bool block() const {
    if constexpr (D == 2 && BlockSorSweeps<Exec>::available)
      return !halo_.on() && (variant_ == SorVariant::Block || variant_ == SorVariant::BlockOpen);
    return false;
  }
  // n sweeps in place in one launch of one block (gated: the open ones of them).
  void block_sweeps(const View& v, int n, const SorGate& gate) {
    if constexpr (D == 2 && BlockSorSweeps<Exec>::available) {
      if (variant_ == SorVariant::BlockOpen)
        BlockSorSweeps<Exec>::run(v, open_, Real(c_.omega), n, gate);
      else
        BlockSorSweeps<Exec>::run(v, FlagArray{v.flags, v.nb.nx + 2}, Real(c_.omega), n, gate);
    }
  }
  // solve()'s loop with each check_every sweeps (fewer before max_iter) in one launch:
  // the same sweeps and checks.
  SolveReport solve_block(const View& v, double bnorm) {
    SolveReport rep;
    const int ce = std::max(1, c_.check_every);
    for (int done = 0; done < c_.max_iter;) {
      const int n = std::min(ce, c_.max_iter - done);
      block_sweeps(v, n, SorGate{});
      done += n;
      rep.iterations = done;
      rep.residual = linalg::residual_norm<Exec>(v, halo_) / bnorm;
      if (!(rep.residual > c_.tol)) break;  // also stops on NaN; the caller sees it
    }
    rep.converged = rep.residual <= c_.tol;
    return rep;
  }

  void sweep_in_place(const View& v) {
    const int half = (v.nb.nx + 1) / 2, ny = v.nb.ny;
    if constexpr (D == 3) {  // flags from the array (the open variants are 2D)
      using Sweep = SorColourSweep<Real, FlagArray3, 3>;
      const FlagArray3 cells{v.flags, v.nb.nx + 2, v.plane()};
      Exec::for_each3(0, half - 1, 1, ny, 1, v.nb.nz, Sweep{v, cells, Real(c_.omega), 0});
      Exec::for_each3(0, half - 1, 1, ny, 1, v.nb.nz, Sweep{v, cells, Real(c_.omega), 1});
    } else {
      auto run = [&](auto cells) {
        using Cells = decltype(cells);
        Exec::for_each(0, half - 1, 1, ny, SorColourSweep<Real, Cells>{v, cells, Real(c_.omega), 0});
        Exec::for_each(0, half - 1, 1, ny, SorColourSweep<Real, Cells>{v, cells, Real(c_.omega), 1});
      };
      if (variant_ == SorVariant::TwoColourOpen) run(open_);
      else run(FlagArray{v.flags, v.nb.nx + 2});
    }
  }

  // Several ranks: the sweeps on the padded block (see the header comment), which
  // counts the fresh rings of its copy of p (pp_fresh_) and exchanges when a colour
  // or the residual needs more.
  void load(const View& v) {
    pb_->load(v.p, pp_.data());
    pb_->load(v.rhs, prhs_.data());
    pp_fresh_ = rhs_fresh_ = 0;
    if (pb_->depth() > 1) pb_->exchange(prhs_.data(), rhs_fresh_);
  }
  void store(const View& v) {
    pb_->ensure(pp_.data(), pp_fresh_, 1);
    pb_->store(pp_.data(), v.p, true);
  }
  void padded_sweep() {
    const PoissonView<Real> pv = pb_->view(pp_.data(), prhs_.data());
    const FlagArray cells{pb_->flags(), pb_->nb().nx + 2};
    for (int c = 0; c < 2; ++c) {
      pb_->ensure(pp_.data(), pp_fresh_, 1);
      pb_->colour_sweep(SorColourSweep<Real, FlagArray>{pv, cells, Real(c_.omega), pb_->colour(c)});
      pp_fresh_ = std::min(pp_fresh_, rhs_fresh_ + 1) - 1;
    }
  }
  SolveReport solve_padded(const View& v, double bnorm) {
    SolveReport rep;
    if constexpr (D == 2) {
      load(v);
      for (int it = 1; it <= c_.max_iter; ++it) {
        padded_sweep();
        rep.iterations = it;
        if (it % c_.check_every == 0 || it == c_.max_iter) {
          pb_->ensure(pp_.data(), pp_fresh_, 1);
          rep.residual = std::sqrt(pb_->sum(ResidualSquared<Real>{pb_->view(pp_.data(), prhs_.data())})) / bnorm;
          if (!(rep.residual > c_.tol)) break;  // also stops on NaN; the caller sees it
        }
      }
      store(v);
      rep.converged = rep.residual <= c_.tol;
    }
    return rep;
  }

  // One fused sweep from v.p into out; with res2 set, also adds the squared
  // residual of v.p (the sweep's input) to *res2 on the device. A gate (solve_device)
  // makes it return at once once the solve stopped.
  void fused_sweep(const View& v, Real* out, double* res2, const SorGate& gate = SorGate{}) {
    if constexpr (D == 2 && FusedSorSweep<Exec>::available) {
      if (variant_ == SorVariant::FusedOpen)
        FusedSorSweep<Exec>::run(v, out, open_, Real(c_.omega), res2, gate);
      else if (variant_ == SorVariant::TiledOpen)
        TiledSorSweep<Exec>::run(v, out, open_, Real(c_.omega), res2, gate);
      else if (variant_ == SorVariant::Tiled)
        TiledSorSweep<Exec>::run(v, out, FlagArray{v.flags, v.nb.nx + 2}, Real(c_.omega), res2, gate);
      else
        FusedSorSweep<Exec>::run(v, out, FlagArray{v.flags, v.nb.nx + 2}, Real(c_.omega), res2, gate);
    }
  }

  // solve_device's sweeps come in bodies of this many (sor_device.hpp): check_every,
  // doubled for the fused variant when odd, so a body of ping-pong sweeps ends where
  // it began.
  int body_length() const {
    const int ce = std::max(1, c_.check_every);
    return fused() && ce % 2 ? 2 * ce : ce;
  }
  // Body b of solve_device (b < 0: any body, inside a graph's while node). With
  // `exact` (b known) the launches past max_iter and the checks that cannot apply are
  // left out; otherwise every launch is there and the gates sort it out.
  void body(const View& v, double* s, int b, bool exact) {
    if constexpr (D == 2) {
      using namespace sor_slot;
      const int ce = std::max(1, c_.check_every), per_body = body_length(), mi = c_.max_iter;
      const int nx = v.nb.nx, ny = v.nb.ny;
      for (int first = 0; first < per_body; first += ce) {
        const int base = b * per_body + first;  // exact: sweeps before this chunk
        if (exact && base >= mi) break;
        for (int q = 0; q < ce; ++q) {
          const int pos = first + q;
          if (exact && base + q + 1 > mi) break;
          if (fused()) {
            // Iterate k lies in v.p for even k, in the second buffer for odd k; this
            // sweep reads iterate b * per_body + pos (per_body is even).
            View in = v;
            Real* out = alt_.data();
            if (pos % 2) {
              in.p = alt_.data();
              out = v.p;
            }
            const bool check = q == 0 && !(exact && base == 0);
            fused_sweep(in, out, check ? s + kRes2 : nullptr, SorGate{s, pos, per_body, mi, check});
            if (check) Exec::for_each(0, 0, 0, 0, SorCheck{s, first, ce, per_body, mi, c_.tol, true});
          } else if (block()) {
            // The chunk's sweeps in one launch (exact: those before max_iter).
            block_sweeps(v, exact ? std::min(ce, mi - base) : ce, SorGate{s, pos, per_body, mi, false});
            break;
          } else {
            sweep_gated(v, SorGate{s, pos, per_body, mi, false});
          }
        }
        if (!fused())
          Exec::reduce_sum_into_then(1, nx, 1, ny, ResidualSquared<Real>{v}, s + kRes2,
                                     SorCheck{s, first, ce, per_body, mi, c_.tol, false});
      }
    }
  }
  // sweep_in_place's two colours, gated (one rank: no halo to exchange).
  void sweep_gated(const View& v, const SorGate& gate) {
    if constexpr (D == 2) {
      const int half = (v.nb.nx + 1) / 2, ny = v.nb.ny;
      auto run = [&](auto cells) {
        using Sweep = SorColourSweep<Real, decltype(cells)>;
        Exec::for_each_gated(gate, 0, half - 1, 1, ny, Sweep{v, cells, Real(c_.omega), halo_.colour(0)});
        Exec::for_each_gated(gate, 0, half - 1, 1, ny, Sweep{v, cells, Real(c_.omega), halo_.colour(1)});
      };
      if (variant_ == SorVariant::TwoColourOpen) run(open_);
      else run(FlagArray{v.flags, v.nb.nx + 2});
    }
  }

  // Ping-pong between v.p and a second buffer. Sweep k computes, for free, the
  // residual of iterate k - 1, so the iterates checked are the same as in the
  // two-colour variant (every check_every sweeps); when one has converged it is
  // returned as it is, so the reported residual is exactly that of the result.
  SolveReport solve_fused(const View& v, double bnorm) {
    SolveReport rep;
    if constexpr (D == 2 && FusedSorSweep<Exec>::available) {
      PoissonView<Real> in = v;
      Real* out = alt(v);
      double* res2 = FusedSorSweep<Exec>::residual_slot();
      bool checked = false;
      for (int it = 1; it <= c_.max_iter; ++it) {
        const bool check = it > 1 && (it - 1) % c_.check_every == 0;
        if (check) FusedSorSweep<Exec>::clear(res2);
        fused_sweep(in, out, check ? res2 : nullptr);
        if (check) {
          rep.residual = std::sqrt(FusedSorSweep<Exec>::read(res2)) / bnorm;
          if (!(rep.residual > c_.tol)) { checked = true; break; }  // iterate it - 1, in `in`
        }
        std::swap(in.p, out);
        rep.iterations = it;
      }
      if (!checked) rep.residual = linalg::residual_norm<Exec>(in) / bnorm;
      if (in.p != v.p) copy(in.p, v.p, v);
      rep.converged = rep.residual <= c_.tol;
    }
    return rep;
  }

  Real* alt(const View& v) {
    const std::size_t n = linalg::field_size(v);
    if (alt_.size() != n) {
      alt_ = DeviceArray<Exec, Real>(n);
      copy(v.p, alt_.data(), v);  // ghosts: the fused sweep writes interior cells only
    }
    return alt_.data();
  }
  static void copy(const Real* from, Real* to, const View& v) {
    Exec::copy(to, from, linalg::field_size(v));
  }

  PressureControl c_;
  BlockHalo<Exec, Real> halo_;  // off on one rank
  SorVariant variant_ = SorVariant::TwoColour;
  OpenDomainFlags open_{};
  DeviceArray<Exec, Real> alt_;
  std::unique_ptr<PaddedBlock<Exec, Real>> pb_;  // several ranks (2D)
  DeviceArray<Exec, Real> pp_, prhs_;            // its copies of p and rhs
  int pp_fresh_ = 0, rhs_fresh_ = 0;
  LaggedRead<Exec> continue_{1};  // solve_device's host-driven loop
};

}  // namespace flowlua
