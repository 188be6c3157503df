// flow.batch with dt and the SOR stop on the device (issue 12): the batch step as the
// lone step in device mode (ProjectionSolver::enqueue_step) does it, for all members at
// once, with nothing read back during the step:
//   1. each member's maxima and DeviceDt in its own slots (dt = "shared": each own dt,
//      then the smallest of them, BatchSmallest, then each member's cap, BatchSharedDt;
//      batch_device.hpp);
//   2. momentum, rhs (and its mean), ||rhs||^2 and SorStart, reading dt from the slots;
//   3. the SOR sweeps in bodies (linalg/sor_device.hpp), each member gated by its own
//      slots (a member that converged sweeps no more: its blocks return at once), the
//      batch's "another body?" flag the OR of the members' (BatchAny); in a CUDA graph
//      the bodies are a conditional while node, else a host loop reading the flag a
//      body late (at once on the CPU);
//   4. the SOR result and report, the pressure's mean (every 16 steps), correction,
//      boundaries.
// Then one copy of every member's slots is queued (LaggedRead): the host takes it
// kLag steps later (at once on the CPU) and hands each member its row
// (ProjectionSolver::take_report): time, dt, the solve's report, a blow-up. A member's
// settle() (its time(), a field, a callback's diagnostics) takes all of them.
//
// The stage code is the members' own, recorded (BatchRecorder) with each member's dt
// and gamma set to placeholders, which its kernels do not read in device mode (they
// read the slots): the recorded bytes do not change from step to step, so a recording
// is uploaded once and, on CUDA with kernels.launch = "graph", captured into a CUDA
// graph (StepGraph) the second time its step comes and replayed from then on. A
// recording belongs to one set of stepping members and their steps modulo 16 (the
// steps that reduce a fixed dt's maxima and remove the pressure's mean); when a member
// drops out the recordings are made anew.
//
// Each member runs the launches it runs alone, in its order, with its numbers (the
// sweeps the lone solve would leave out run gated, and do nothing), so on the CPU a
// member's fields, time, dt and report equal its lone run in device mode bit for bit
// (tests/unit/test_projection_batch.cpp); on CUDA the batched reductions add in
// another order (round-off; tests/gpu/test_cuda_batch.cpp).
#pragma once
#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "models/projection/projection_batch.hpp"

namespace flowlua::projection {

template <class Exec, class Real>
struct ProjectionBatch<Exec, Real>::Entry {
  explicit Entry(int members) : rec(members) {}
  std::vector<int> key;   // per stepping member: 2 b + (its step count % 16 == 0)
  std::vector<int> live;  // the stepping members
  BatchRecorder<Exec> rec;
  StepGraph<Exec> graph;
  DeviceArray<Exec, int> who;  // live, in backend memory (the batch-wide stages)
  bool seen = false;           // stepped once directly (its buffers exist): record it next time
  bool batched = true;         // every flush launched each stage once for all members
};

template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::choose_device_path(bool allow) {
  device_ = false;
  if (!allow) { device_off_ = "the host path was asked for"; return; }
  if (!sor_) { device_off_ = "a member's pressure solver is not rbsor (or pressure.mixed)"; return; }
  for (Member* m : m_)
    if (!m->dt_device_ || !m->sor_device_) {
      device_off_ = "a member has kernels.dt or kernels.pressure_stop = \"host\"";
      return;
    }
  // One body of sweeps for all: the members' check intervals must agree.
  check_every_ = std::max(1, m_[0]->c_.pressure.check_every);
  per_body_ = m_[0]->sor()->body_length();
  for (Member* m : m_)
    if (std::max(1, m->c_.pressure.check_every) != check_every_ || m->sor()->body_length() != per_body_) {
      device_off_ = "the members' pressure.check_every differ";
      return;
    }
  device_ = true;
  graphs_ = true;
  for (Member* m : m_) graphs_ = graphs_ && m->graph_;
}

template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::attach_device() {
  for (std::size_t b = 0; b < m_.size(); ++b) {
    Member& m = *m_[b];
    m.settle();  // its own reports in flight, before the batch takes over
    double* mine = scal_.data() + b * K;
    Exec::copy(mine, m.scalars_.data(), K);  // its time, dt, caps: the device's state
    m.scal_ = mine;
    m.batch_ = this;
    m.caps_dirty_ = true;
    failure_[b].clear();
  }
  Exec::synchronize();
  entries_.clear();
  last_entry_ = nullptr;
}

template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::detach_device() {
  settle_reports();
  // The recordings go with the batch's hold on its members (a graph also holds the
  // backend's batch scratch, which a larger batch elsewhere may reallocate).
  Exec::synchronize();
  entries_.clear();
  last_entry_ = nullptr;
  for (std::size_t b = 0; b < m_.size(); ++b) {
    Member& m = *m_[b];
    Exec::copy(m.scalars_.data(), scal_.data() + b * K, K);
    m.scal_ = m.scalars_.data();
    m.batch_ = nullptr;
    m.caps_dirty_ = true;
  }
}

template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::settle_reports() {
  while (reports_.pending()) take_posted(reports_.take(true));
}

// Hands each member of a posted copy its row; a member whose report shows a blow-up
// (ProjectionSolver::fail_at throws it) keeps the message for the next step().
template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::take_posted(const double* r) {
  const Posted p = std::move(posted_.front());
  posted_.pop_front();
  for (const auto& [b, step] : p.members) {
    Member& m = *m_[b];
    // Passed over: a member that failed, or whose reports were dropped since (a restart).
    if (!failure_[b].empty() || m.pending_.empty() || m.pending_.front().step != step) continue;
    try {
      m.take_report(r + std::size_t(b) * K);
    } catch (const BlowUp& e) {
      failure_[b] = e.what();
    }
  }
}

template <class Exec, class Real>
std::string ProjectionBatch<Exec, Real>::launch_used() const {
  if (!device_) return "dt on the host (" + device_off_ + ")";
  std::string s = "dt on the device, ";
  if (!graphs_) return s + "direct launches";
  if (!graph_refused_.empty()) return s + "direct (graph refused: " + graph_refused_ + ")";
  return s + (replays_ > 0 ? "graph" : "direct");
}

template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::step_device(const std::vector<int>& active, std::vector<std::string>& failed) {
  std::vector<int> live;
  for (int b : active) {
    if (!failure_[b].empty()) failed[b] = failure_[b];
    else live.push_back(b);
  }
  if (live.empty()) return;
  std::vector<char> speed(m_.size(), 0);
  for (int b : live) {
    m_[b]->upload_caps();  // only when its end time or cap changed
    speed[b] = m_[b]->need_speed();
  }
  Entry& e = entry_for(live);
  if (graphs_ && e.graph.ready()) {
    e.graph.launch();
    ++replays_;
  } else if (graphs_ && e.seen && !e.graph.failed()) {
    if (e.graph.capture([&] { enqueue_device(e, live); })) {
      ++captured_;
      e.graph.launch();
      ++replays_;
    } else {  // nothing ran: launch the step directly (from now on for this recording)
      e.rec.discard();
      graph_refused_ = e.graph.why();
      enqueue_device(e, live);
    }
  } else {
    e.seen = true;
    enqueue_device(e, live);
  }
  batched_ = e.batched;
  Posted p;
  for (int b : live) {
    Member& m = *m_[b];
    ++m.steps_;
    m.pending_.push_back(typename Member::Pending{m.steps_, bool(speed[b]), true});
    p.members.emplace_back(b, m.steps_);
  }
  posted_.push_back(std::move(p));
  reports_.post(scal_.data());
  while (reports_.pending() > LaggedRead<Exec>::kLag) take_posted(reports_.take(true));
  for (int b : live)
    if (!failure_[b].empty()) failed[b] = failure_[b];
}

template <class Exec, class Real>
typename ProjectionBatch<Exec, Real>::Entry& ProjectionBatch<Exec, Real>::entry_for(const std::vector<int>& live) {
  std::vector<int> key;
  key.reserve(live.size());
  for (int b : live) key.push_back(2 * b + (m_[b]->steps_ % 16 == 0 ? 1 : 0));
  if (last_entry_ && last_entry_->key == key) return *last_entry_;
  for (auto& e : entries_)
    if (e->key == key) return *(last_entry_ = e.get());
  // Another set of members (one dropped out; they do not come back): the recordings
  // of the old set go. At most 16 phases of one set (steps modulo 16).
  if (!entries_.empty() && (entries_[0]->live != live || entries_.size() >= 16)) {
    Exec::synchronize();  // no replay in flight reads what is freed
    entries_.clear();
  }
  auto e = std::make_unique<Entry>(int(m_.size()));
  e->key = std::move(key);
  e->live = live;
  e->who = DeviceArray<Exec, int>(live.size());
  e->who.upload(live);
  entries_.push_back(std::move(e));
  return *(last_entry_ = entries_.back().get());
}

template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::flush_device(Entry& e, int tag) {
  if (e.rec.empty()) return;
  e.rec.flush(tag);
  e.batched = e.batched && e.rec.last_flush_batched();
}

template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::enqueue_device(Entry& e, const std::vector<int>& live) {
  // Placeholders for the host's dt and gamma in the recorded point functions: in device
  // mode their kernels read the slots, and the bytes must not change between steps.
  struct Placeholders {
    std::vector<std::pair<double, double>> kept;
    const std::vector<Member*>& m;
    const std::vector<int>& live;
    Placeholders(const std::vector<Member*>& members, const std::vector<int>& l) : m(members), live(l) {
      for (int b : live) {
        kept.emplace_back(m[b]->dt_, m[b]->gamma_);
        m[b]->dt_ = 1;
        m[b]->gamma_ = 0;
      }
    }
    ~Placeholders() {
      for (std::size_t k = 0; k < live.size(); ++k) std::tie(m[live[k]]->dt_, m[live[k]]->gamma_) = kept[k];
    }
  } hold(m_, live);
  BatchRecorder<Exec>& rec = e.rec;
  using namespace sor_slot;

  record_dt(e, live);
  // 2. Momentum, rhs (and its mean), ||rhs||^2 and the SOR's start.
  for (int b : live) {
    Member& m = *m_[b];
    rec.set_member(b);
    m.momentum(rec);
    m.pressure_rhs(rec);
    const PoissonView<Real> v = m.poisson_view();
    double* s = sor_slots(m);
    rec.reduce_sum_into(1, v.nb.nx, 1, v.nb.ny, FluidSum<Real>{v.rhs, v.flags, v.nb.nx + 2, true}, s + kBnorm2);
    rec.for_each(0, 0, 0, 0, SorStart{s});
  }
  flush_device(e, kTagMomentum);
  // 3. The sweeps.
  run_bodies(e, live);
  // 4. The solve's result and report, the pressure's mean, correction, boundaries.
  for (int b : live) {
    Member& m = *m_[b];
    rec.set_member(b);
    const PoissonView<Real> v = m.poisson_view();
    double* s = sor_slots(m);
    const int mi = m.c_.pressure.max_iter, nx = v.nb.nx, ny = v.nb.ny;
    if (fused_) {
      Real* second = m.sor()->second_buffer(v);
      PoissonView<Real> last = v;  // iterate max_iter: the result unless a check stopped earlier
      if (mi % 2) last.p = second;
      rec.reduce_sum_into(1, nx, 1, ny, ResidualSquared<Real>{last}, s + kFinal2);
      rec.for_each(0, nx + 1, 0, ny + 1, SorFinish<Real>{v.p, second, s, nx + 2, mi});
    } else {
      rec.for_each(0, nx + 1, 0, ny + 1, SorFinish<Real>{v.p, nullptr, s, nx + 2, mi});
    }
    if (m.setup_.singular && m.steps_ % 16 == 0) m.remove_fluid_mean(rec, m.p_.data(), kPressureSum);
    m.correct(rec);
    m.fill_boundaries(rec);
  }
  flush_device(e, kTagCorrect);
}

// 1. The velocity kept (cases with obstacles), the maxima and each member's dt.
template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::record_dt(Entry& e, const std::vector<int>& live) {
  BatchRecorder<Exec>& rec = e.rec;
  std::vector<char> speed(m_.size(), 0);
  for (int b : live) {
    Member& m = *m_[b];
    rec.set_member(b);
    if (m.keep_previous()) {  // keep_velocity's copies, as launches of the batch
      const int nx = m.g_.nx, ny = m.g_.ny;
      rec.for_each(0, nx + 1, 0, ny + 1, CopyAs<Real, Real>{m.u_.data(), m.up_.data(), nx + 2});
      rec.for_each(0, nx + 1, 0, ny + 1, CopyAs<Real, Real>{m.v_.data(), m.vp_.data(), nx + 2});
    }
    speed[b] = m.launch_dt(rec);
    if (shared_) rec.for_each(0, 0, 0, 0, BatchOwnDt{m.scal_, m.rule_, bool(speed[b]), m.need_peclet()});
    else rec.for_each(0, 0, 0, 0, DeviceDt{m.scal_, m.rule_, bool(speed[b]), m.need_peclet()});
  }
  flush_device(e, kTagDt);
  if (!shared_) return;
  Exec::for_each(0, 0, 0, 0, BatchSmallest{scal_.data(), K, kOwnDt, e.who.data(), int(live.size()), batch_slot(0)});
  for (int b : live) {
    Member& m = *m_[b];
    rec.set_member(b);
    rec.for_each(0, 0, 0, 0, BatchSharedDt{m.scal_, batch_slot(0), m.rule_, bool(speed[b])});
  }
  flush_device(e, kTagSharedDt);
}

// One body of sweeps for every member (RedBlackSOR::body, the same launches and gates,
// linalg/rbsor.hpp). body < 0: any body (exact = false: every launch, the gates decide);
// with `exact` the launches past the largest max_iter of the batch and the first
// solve's check are left out, as the lone solve leaves them out for its own max_iter
// (a member with a smaller max_iter is gated off there).
template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::record_body(Entry& e, const std::vector<int>& live, int body, bool exact) {
  using namespace sor_slot;
  BatchRecorder<Exec>& rec = e.rec;
  int mi_max = 0;
  for (int b : live) mi_max = std::max(mi_max, m_[b]->c_.pressure.max_iter);
  const int ce = check_every_;
  for (int first = 0; first < per_body_; first += ce) {
    const int base = body * per_body_ + first;  // exact: sweeps before this chunk
    if (exact && base >= mi_max) break;
    for (int q = 0; q < ce; ++q) {
      const int pos = first + q;
      if (exact && base + q + 1 > mi_max) break;
      const bool check = q == 0 && !(exact && base == 0);
      for (int b : live) {
        Member& m = *m_[b];
        rec.set_member(b);
        const PoissonView<Real> v = m.poisson_view();
        double* s = sor_slots(m);
        const int mi = m.c_.pressure.max_iter;
        if (fused_) {
          // Iterate k lies in p for even k, in the second buffer for odd k.
          Real* second = m.sor()->second_buffer(v);
          Real* in = pos % 2 ? second : v.p;
          Real* out = pos % 2 ? v.p : second;
          fused_sweep(rec, m, in, out, s + kRes2, check, SorGate{s, pos, per_body_, mi, check});
          if (check) rec.for_each(0, 0, 0, 0, SorCheck{s, first, ce, per_body_, mi, m.c_.pressure.tol, true});
        } else {
          const SorGate gate{s, pos, per_body_, mi, false};
          const int half = (v.nb.nx + 1) / 2, ny = v.nb.ny;
          const Real omega = Real(m.c_.pressure.omega);
          auto run = [&](auto cells) {
            using Sweep = SorColourSweep<Real, decltype(cells)>;
            rec.for_each(0, half - 1, 1, ny, GatedPoint<SorGate, Sweep>{gate, Sweep{v, cells, omega, 0}});
            rec.for_each(0, half - 1, 1, ny, GatedPoint<SorGate, Sweep>{gate, Sweep{v, cells, omega, 1}});
          };
          if (m.plan_.variant("pressure") == "rbsor_open") run(m.open_flags_);
          else run(FlagArray{v.flags, v.nb.nx + 2});
        }
      }
    }
    if (!fused_) {
      for (int b : live) {
        Member& m = *m_[b];
        rec.set_member(b);
        const PoissonView<Real> v = m.poisson_view();
        double* s = sor_slots(m);
        rec.reduce_sum_into(1, v.nb.nx, 1, v.nb.ny, ResidualSquared<Real>{v}, s + kRes2);
        rec.for_each(0, 0, 0, 0, SorCheck{s, first, ce, per_body_, m.c_.pressure.max_iter, m.c_.pressure.tol, false});
      }
    }
  }
}

// RedBlackSOR::solve_device's loop over bodies for the whole batch: while any member
// iterates.
template <class Exec, class Real>
void ProjectionBatch<Exec, Real>::run_bodies(Entry& e, const std::vector<int>& live) {
  int mi_max = 0;
  for (int b : live) mi_max = std::max(mi_max, m_[b]->c_.pressure.max_iter);
  const int bodies = mi_max > 0 ? (mi_max + per_body_ - 1) / per_body_ : 0;
  if (bodies == 1) {
    record_body(e, live, 0, true);
    flush_device(e, kTagBody);
    return;
  }
  if (bodies == 0) return;
  // One body as the while node or the host loop runs it: the same bytes every time.
  auto one_body = [&] {
    record_body(e, live, -1, false);
    for (int b : live) {
      Member& m = *m_[b];
      e.rec.set_member(b);
      e.rec.for_each(0, 0, 0, 0, SorEndBody{sor_slots(m), per_body_, m.c_.pressure.max_iter});
    }
    flush_device(e, kTagBody);
    Exec::for_each(0, 0, 0, 0,
                   BatchAny{scal_.data(), K, Member::kSor + sor_slot::kContinue, e.who.data(), int(live.size()),
                            batch_slot(1)});
  };
  if (GraphLoop<Exec>::capturing()) {
    GraphLoop<Exec>::run_while(one_body, batch_slot(1));
    return;
  }
  // Body b + 1 is queued before the host waits for body b's verdict (on CUDA).
  const int lag = LaggedRead<Exec>::kLag > 0 ? 1 : 0;
  bool stop = false;
  for (int b = 0; b < bodies && !stop; ++b) {
    one_body();
    continue_.post(batch_slot(1));
    while (continue_.pending() > lag) stop = *continue_.take(true) == 0 || stop;
  }
  continue_.discard();
}

}  // namespace flowlua::projection
