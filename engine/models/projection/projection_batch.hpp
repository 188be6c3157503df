// flow.batch for the projection model: several ProjectionSolvers of one backend,
// precision, grid and kernel plan stepped together, each stage launched once for the
// whole batch (backend/batch_launch.hpp; the member is grid z on CUDA).
//
// A step runs the members' own stage code (ProjectionSolver's launch_dt, momentum,
// pressure_rhs, correct, fill_boundaries) against a BatchRecorder, in four flushes
// with one host read after the first three:
//   1. the dt maxima of every member -> one copy of all members' scalars -> each
//      member's dt (its own, or with dt = "shared" the smallest of all, before each
//      member's own cap for t_end);
//   2. momentum, rhs (and its fluid mean for a case without outflow), ||rhs||^2 -> one copy;
//   3. red-black SOR: the members still iterating sweep together; every check_every
//      sweeps the residuals come back in one copy and converged members stop; with
//      the fused variant (CUDA) one launch per sweep for the whole batch
//      (FusedSorSweep::run_batch), ping-pong as alone (members whose plan chose the
//      one-block variant sweep fused here too; other pressure solvers: each
//      member's own solve, in turn);
//   4. the pressure's mean (every 16 steps), correction, boundaries.
// Each member sees exactly its own launches in its own order with its own numbers, so
// on the CPU its results are those of the same case run alone, bit for bit
// (tests/unit/test_projection_batch.cpp); on CUDA the batched sums add in another
// order (round-off), and the fused sweeps' residuals are summed with atomics.
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "backend/batch_launch.hpp"
#include "models/projection/projection_solver.hpp"
#include "sim/batch.hpp"

namespace flowlua::projection {

// Zeroes a slot in backend memory (a batch's residual sum before a fused check).
struct ZeroSlot {
  double* s;
  FL_HD void operator()(int, int) const { *s = 0; }
};

template <class Exec, class Real>
class ProjectionBatch final : public BatchStepper {
 public:
  using Member = ProjectionSolver<Exec, Real>;
  static constexpr int K = Member::kScalars;

  ProjectionBatch(std::vector<Member*> members, bool shared_dt)
      : m_(std::move(members)), shared_(shared_dt), rec_(int(m_.size())), scal_(m_.size() * K),
        host_(m_.size() * K, 0.0) {
    scal_.fill(0.0);
    sor_ = true;
    for (Member* m : m_)  // pressure.mixed solves through its own refinement, member by member
      sor_ = sor_ && !m->refined_ && dynamic_cast<RedBlackSOR<Exec, Real>*>(m->pressure_.get()) != nullptr;
    // The fused sweep: every member's plan chose it (they share one plan).
    fused_ = sor_;
    for (Member* m : m_) fused_ = fused_ && m->sor()->sweeps_fused();
    // Members step with the host's dt here (a member in kernels.dt = "device" mode
    // switches to the host path until the batch gives it back).
    for (Member* m : m_) m->enter_batch();
    for (std::size_t b = 0; b < m_.size(); ++b) m_[b]->scal_ = scal_.data() + b * K;
  }
  ~ProjectionBatch() override { release(); }

  void release() override {
    for (Member* m : m_) {
      m->scal_ = m->scalars_.data();
      m->leave_batch();
    }
  }
  bool batched() const override { return batched_; }

  void step(const std::vector<int>& active, std::vector<std::string>& failed) override {
    batched_ = true;
    std::vector<int> live;
    // 1. dt.
    std::vector<char> speed(m_.size(), 0);
    bool any = false;
    for (int b : active) {
      rec_.set_member(b);
      speed[b] = m_[b]->launch_dt(rec_);
      any = any || speed[b];
    }
    flush(kTagDt);
    if (any) read();
    for (int b : active) {
      try {
        if (speed[b] && !std::isfinite(host_[b * K + kInverseTime]))
          m_[b]->blow_up("velocity is not finite");
        live.push_back(b);
      } catch (const BlowUp& e) {
        failed[b] = e.what();
      }
    }
    double common = 0;
    if (shared_) {
      common = INFINITY;
      for (int b : live) {
        const double* h = speed[b] ? &host_[b * K] : nullptr;
        const double inv_t = h ? h[kInverseTime] : 0;
        const double speed2 = h && m_[b]->need_peclet() ? h[kSpeedSquared] : 0;
        common = std::min(common, m_[b]->next_dt(inv_t, speed2, false));
      }
    }
    for (int b : live) m_[b]->finish_dt(speed[b] ? &host_[b * K] : nullptr, common);

    // 2. Momentum, rhs, ||rhs||^2 (the velocity before the step kept first, as step()
    // does; the copy is queued before the momentum launches this flush issues).
    for (int b : live) {
      Member& m = *m_[b];
      rec_.set_member(b);
      m.keep_velocity();
      m.momentum(rec_);
      m.pressure_rhs(rec_);
      if (sor_) {
        const PoissonView<Real> v = m.poisson_view();
        rec_.reduce_sum_into(1, v.nb.nx, 1, v.nb.ny, FluidSum<Real>{v.rhs, v.flags, v.nb.nx + 2, true},
                             m.scal_ + kRhsNorm2);
      }
    }
    flush(kTagMomentum);

    // 3. Pressure.
    if (sor_) {
      read();
      if (fused_) solve_sor_fused(live, failed);
      else solve_sor(live, failed);
    } else {
      for (int b : live) {
        try {
          m_[b]->solve_pressure();
        } catch (const BlowUp& e) {
          failed[b] = e.what();
        }
      }
    }

    // 4. The pressure's mean, correction, boundaries.
    for (int b : live) {
      if (!failed[b].empty()) continue;
      Member& m = *m_[b];
      rec_.set_member(b);
      if (sor_ && m.setup_.singular && m.steps_ % 16 == 0) m.remove_fluid_mean(rec_, m.p_.data(), kPressureSum);
      m.correct(rec_);
      m.fill_boundaries(rec_);
    }
    flush(kTagCorrect);
    for (int b : live) {
      if (!failed[b].empty()) continue;
      m_[b]->time_ += m_[b]->dt_;
      ++m_[b]->steps_;
    }
  }

 private:
  // Flush tags: a flush re-uploads its records only when they differ from the last
  // flush with its tag (the fused sweeps, their final residuals and copies apart).
  enum { kTagDt, kTagMomentum, kTagSweep, kTagCorrect, kTagFinal, kTagCopy };

  void flush(int tag) {
    if (rec_.empty()) return;
    rec_.flush(tag);
    batched_ = batched_ && rec_.last_flush_batched();
  }
  // The slots the batch reads back (kInverseTime .. kResidual2 of every member): one
  // strided copy, the rest of each member's block (its own device step's) left out.
  void read() {
    Exec::read_scalar_rows(host_.data(), scal_.data(), kBatchSlots, K, int(m_.size()));
  }
  static constexpr int kBatchSlots = kResidual2 + 1;

  // RedBlackSOR::solve's two-colour iteration (the same sweeps, checks and stopping
  // rule, linalg/rbsor.hpp) for all members at once.
  void solve_sor(const std::vector<int>& live, std::vector<std::string>& failed) {
    std::vector<int> solving;
    std::vector<double> bnorm(m_.size(), 0);
    for (int b : live) {
      Member& m = *m_[b];
      bnorm[b] = std::sqrt(host_[b * K + kRhsNorm2]);
      if (bnorm[b] == 0) {  // lap p = 0 with these boundaries: p = 0 (up to a constant)
        const PoissonView<Real> v = m.poisson_view();
        Exec::fill(v.p, Real(0), linalg::field_size(v));
        m.last_solve_ = SolveReport{0, 0, true};
        continue;
      }
      solving.push_back(b);
    }
    std::vector<char> due(m_.size(), 0);
    std::vector<int> next;
    for (int it = 1; !solving.empty(); ++it) {
      bool checks = false;
      for (int b : solving) {
        Member& m = *m_[b];
        const PressureControl& pc = m.c_.pressure;
        rec_.set_member(b);
        const PoissonView<Real> v = m.poisson_view();
        sweep(m, v);
        due[b] = it % pc.check_every == 0 || it == pc.max_iter;
        if (due[b]) {
          rec_.reduce_sum_into(1, v.nb.nx, 1, v.nb.ny, ResidualSquared<Real>{v}, m.scal_ + kResidual2);
          checks = true;
        }
      }
      if (!checks) continue;
      flush(kTagSweep);
      read();
      next.clear();
      for (int b : solving) {
        Member& m = *m_[b];
        const PressureControl& pc = m.c_.pressure;
        if (!due[b]) { next.push_back(b); continue; }
        const double res = std::sqrt(host_[b * K + kResidual2]) / bnorm[b];
        if (res > pc.tol && it < pc.max_iter) { next.push_back(b); continue; }
        m.last_solve_ = SolveReport{it, res, res <= pc.tol};
        try {
          if (!std::isfinite(res)) m.blow_up("pressure solve diverged");
        } catch (const BlowUp& e) {
          failed[b] = e.what();
        }
      }
      solving.swap(next);
    }
  }

  // RedBlackSOR's fused solve (rbsor.hpp, solve_fused) for all members at once, one
  // launch per sweep for the whole batch: each member ping-pongs between p and its
  // second buffer (iterate k in p for even k); sweep it adds the residual of its input,
  // iterate it - 1, when it > 1 and (it - 1) % check_every == 0, the residuals come
  // back in one copy at such sweeps, and a converged member returns that iterate; one
  // that never converges returns iterate max_iter with its residual. The same sweeps,
  // checks and results as the member alone.
  void solve_sor_fused(const std::vector<int>& live, std::vector<std::string>& failed) {
    if constexpr (FusedSorSweep<Exec>::available) {
      std::vector<int> solving, last;  // last: members that ran into max_iter
      std::vector<double> bnorm(m_.size(), 0);
      std::vector<Real*> second(m_.size(), nullptr);
      std::vector<int> result(m_.size(), 0);  // the iterate each member returns
      for (int b : live) {
        Member& m = *m_[b];
        bnorm[b] = std::sqrt(host_[b * K + kRhsNorm2]);
        const PoissonView<Real> v = m.poisson_view();
        if (bnorm[b] == 0) {  // lap p = 0 with these boundaries: p = 0 (up to a constant)
          Exec::fill(v.p, Real(0), linalg::field_size(v));
          m.last_solve_ = SolveReport{0, 0, true};
          continue;
        }
        second[b] = m.sor()->second_buffer(v);
        if (m.c_.pressure.max_iter <= 0) last.push_back(b);
        else solving.push_back(b);
      }
      auto buffer = [&](int b, int k) { return k % 2 ? second[b] : m_[b]->p_.data(); };
      auto stop = [&](int b, int iterate, double res) {
        Member& m = *m_[b];
        result[b] = iterate;
        m.last_solve_ = SolveReport{iterate, res, res <= m.c_.pressure.tol};
        if (!std::isfinite(res)) {
          try {
            m.blow_up("pressure solve diverged");
          } catch (const BlowUp& e) {
            failed[b] = e.what();
          }
        }
      };
      std::vector<int> next;
      for (int it = 1; !solving.empty(); ++it) {
        bool checks = false, ends = false;
        for (int b : solving) {
          const PressureControl& pc = m_[b]->c_.pressure;
          checks = checks || (it > 1 && (it - 1) % pc.check_every == 0);
          ends = ends || it >= pc.max_iter;
        }
        for (int b : solving) {
          Member& m = *m_[b];
          const PressureControl& pc = m.c_.pressure;
          rec_.set_member(b);
          // Every member zeroes its sum when any checks (one sequence for all).
          if (checks) rec_.for_each(0, 0, 0, 0, ZeroSlot{m.scal_ + kResidual2});
          fused_sweep(m, buffer(b, it - 1), buffer(b, it), it > 1 && (it - 1) % pc.check_every == 0);
        }
        if (!checks && !ends) continue;  // the sweeps wait in the recorder
        flush(kTagSweep);
        if (checks) read();
        next.clear();
        for (int b : solving) {
          const PressureControl& pc = m_[b]->c_.pressure;
          if (it > 1 && (it - 1) % pc.check_every == 0) {
            const double res = std::sqrt(host_[b * K + kResidual2]) / bnorm[b];
            if (!(res > pc.tol)) {  // also stops on NaN
              stop(b, it - 1, res);
              continue;
            }
          }
          if (it >= pc.max_iter) last.push_back(b);
          else next.push_back(b);
        }
        solving.swap(next);
      }
      // Members that ran into max_iter: iterate max_iter and its residual.
      if (!last.empty()) {
        for (int b : last) {
          Member& m = *m_[b];
          rec_.set_member(b);
          PoissonView<Real> v = m.poisson_view();
          v.p = buffer(b, m.c_.pressure.max_iter);
          rec_.reduce_sum_into(1, v.nb.nx, 1, v.nb.ny, ResidualSquared<Real>{v}, m.scal_ + kResidual2);
        }
        flush(kTagFinal);
        read();
        for (int b : last)
          stop(b, m_[b]->c_.pressure.max_iter, std::sqrt(host_[b * K + kResidual2]) / bnorm[b]);
      }
      // The results that lie in the second buffer go back into p.
      bool copies = false;
      for (int b : live) {
        if (!second[b] || result[b] % 2 == 0) continue;
        Member& m = *m_[b];
        rec_.set_member(b);
        const int st = m.g_.nx + 2;
        rec_.for_each(0, m.g_.nx + 1, 0, m.g_.ny + 1, CopyAs<Real, Real>{second[b], m.p_.data(), st});
        copies = true;
      }
      if (copies) flush(kTagCopy);
    }
  }

  // One fused sweep of member m from `in` into `out` (FusedSorSweep::run_batch), with
  // the cells its plan reads; `check`: add the residual of `in` to its kResidual2.
  void fused_sweep(Member& m, Real* in, Real* out, bool check) {
    if constexpr (FusedSorSweep<Exec>::available) {
      const PoissonView<Real> v = m.poisson_view();
      const Real omega = Real(m.sor()->omega());
      const Real diag = 2 * (v.idx2 + v.idy2);  // as FusedSorSweep::launch computes omega / diag
      auto rec = [&](auto cells) {
        using Cells = decltype(cells);
        using A = FusedSweepArgs<Real, Cells>;
        const A a{in, out, v.rhs, cells, v.idx2, v.idy2, omega, Real(omega / diag), m.scal_ + kResidual2, check};
        rec_.template custom<A, &ProjectionBatch::template run_fused<Cells>>(0, v.nb.nx, 0, v.nb.ny, a);
      };
      const std::string& var = m.plan_.variant("pressure");
      if (var == "rbsor_fused_open" || var == "rbsor_block_open") rec(m.open_flags_);
      else rec(FlagArray{v.flags, v.nb.nx + 2});
    }
  }
  template <class Cells>
  static void run_fused(const FusedSweepArgs<Real, Cells>* a, int n, const int* range) {
    if constexpr (FusedSorSweep<Exec>::available) FusedSorSweep<Exec>::run_batch(a, n, range[1], range[3]);
  }

  // One red-black sweep of member m (both colours), with the cells its plan reads.
  void sweep(Member& m, const PoissonView<Real>& v) {
    const int half = (v.nb.nx + 1) / 2, ny = v.nb.ny;
    const Real omega = Real(m.c_.pressure.omega);
    const std::string& var = m.plan_.variant("pressure");
    auto run = [&](auto cells) {
      using Cells = decltype(cells);
      rec_.for_each(0, half - 1, 1, ny, SorColourSweep<Real, Cells>{v, cells, omega, 0});
      rec_.for_each(0, half - 1, 1, ny, SorColourSweep<Real, Cells>{v, cells, omega, 1});
    };
    if (var == "rbsor_open" || var == "rbsor_fused_open" || var == "rbsor_block_open") run(m.open_flags_);
    else run(FlagArray{v.flags, v.nb.nx + 2});
  }

  std::vector<Member*> m_;
  bool shared_;
  bool sor_ = false;
  bool fused_ = false;  // the members sweep with the fused variant (CUDA)
  bool batched_ = false;
  BatchRecorder<Exec> rec_;
  DeviceArray<Exec, double> scal_;  // K slots per member, in the members' order
  std::vector<double> host_;
};

template <class Exec, class Real>
std::string ProjectionSolver<Exec, Real>::batch_key() const {
  // On several MPI ranks the members step one after another (their stages exchange
  // halos between launches, which a recorded batch would reorder).
  if (link_.on()) return "";
  std::string k = std::string("projection, ") + Exec::name + ", " + (sizeof(Real) == 4 ? "float" : "double") + ", " +
                  std::to_string(g_.nx) + " x " + std::to_string(g_.ny) + " cells, plan";
  for (const std::string& stage : plan_.order) k += " " + stage + "=" + plan_.variant(stage);
  return k;
}

template <class Exec, class Real>
std::unique_ptr<BatchStepper> ProjectionSolver<Exec, Real>::make_batch_stepper(const std::vector<Solver*>& members,
                                                                               bool shared_dt) {
  std::vector<ProjectionSolver*> m;
  for (Solver* s : members) {
    auto* p = dynamic_cast<ProjectionSolver*>(s);
    if (!p) return nullptr;  // batch_key said they agree; be safe all the same
    m.push_back(p);
  }
  return std::make_unique<ProjectionBatch<Exec, Real>>(std::move(m), shared_dt);
}

}  // namespace flowlua::projection
