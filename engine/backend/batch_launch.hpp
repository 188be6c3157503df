// Recording the launches of several simulations' stages and replaying them as one
// launch per stage for the whole batch (flow.batch, models/projection/projection_batch.hpp).
//
// Each member runs its stage code against the recorder (set_member(b) first); a
// launch is recorded as its point function's bytes (point functions are trivially
// copyable structs of pointers and numbers), its index range and, for reductions,
// the member's output slot. flush() then runs the records: when every member
// recorded the same sequence (same point-function types, same ranges: members of
// one grid and one kernel plan), record k of all members becomes one batched
// launch, Exec::for_each_batch / reduce_*_batch_into, with the member as the
// outermost index (grid z on CUDA). Otherwise (members whose sequences differ, e.g.
// one with an outflow side) each member's records run in its own order, one launch
// each. Either way a member sees its own launches in its own order, so its results
// do not depend on the others.
//
// The point functions and output slots of one flush are copied to backend memory in
// one upload, skipped when the bytes equal those of the last flush with the same
// tag (a stage whose parameters did not change since the last step).
#pragma once
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "backend/device_array.hpp"

namespace flowlua {

template <class Exec>
class BatchRecorder {
 public:
  explicit BatchRecorder(int members) : lists_(members) {}

  int members() const { return int(lists_.size()); }
  // Subsequent records belong to member b (0-based).
  void set_member(int b) { cur_ = b; }

  template <class F>
  void for_each(int i0, int i1, int j0, int j1, const F& f) {
    static_assert(copyable<F>(), "a batched point function must be trivially copyable");
    add(&run_for_each<F>, i0, i1, j0, j1, &f, sizeof(F), alignof(F), nullptr);
  }
  template <class F>
  void reduce_max_into(int i0, int i1, int j0, int j1, const F& f, double* out) {
    static_assert(copyable<F>(), "a batched point function must be trivially copyable");
    add(&run_max<F>, i0, i1, j0, j1, &f, sizeof(F), alignof(F), out);
  }
  template <class F>
  void reduce_sum_into(int i0, int i1, int j0, int j1, const F& f, double* out) {
    static_assert(copyable<F>(), "a batched point function must be trivially copyable");
    add(&run_sum<F>, i0, i1, j0, j1, &f, sizeof(F), alignof(F), out);
  }

  // A launch that is no point function (the fused SOR sweep): Run(args, n, range) is
  // given the members' argument structs side by side in backend memory, their number
  // and the range recorded.
  template <class A, void (*Run)(const A*, int, const int*)>
  void custom(int i0, int i1, int j0, int j1, const A& a) {
    static_assert(copyable<A>(), "a batched launch's arguments must be trivially copyable");
    add(&run_custom<A, Run>, i0, i1, j0, j1, &a, sizeof(A), alignof(A), nullptr);
  }

  bool empty() const {
    for (const auto& l : lists_)
      if (!l.empty()) return false;
    return true;
  }

  // Runs everything recorded (see above) and forgets it. `tag` names the kind of
  // flush (a stage group of the step) for the skip-unchanged upload.
  void flush(int tag) {
    const int nm = members();
    std::vector<int> who;  // the members that recorded something
    for (int b = 0; b < nm; ++b)
      if (!lists_[b].empty()) who.push_back(b);
    if (who.empty()) return;
    const bool together = same_sequences(who);
    // Layout of the upload: per group (a site of all members, or one record), the
    // point functions side by side, then the output slots side by side.
    host_.clear();
    groups_.clear();
    auto align_to = [&](std::size_t a) { host_.resize((host_.size() + a - 1) / a * a); };
    auto add_group = [&](const std::vector<const Record*>& recs) {
      Group g;
      g.rec = *recs[0];
      g.n = int(recs.size());
      align_to(g.rec.align > alignof(double*) ? g.rec.align : alignof(double*));
      g.fs = host_.size();
      for (const Record* r : recs) {
        const std::size_t at = host_.size();
        host_.resize(at + r->size);
        std::memcpy(host_.data() + at, bytes_[r->member].data() + r->offset, r->size);
      }
      align_to(alignof(double*));
      g.outs = host_.size();
      host_.resize(g.outs + recs.size() * sizeof(double*));
      for (std::size_t k = 0; k < recs.size(); ++k)
        std::memcpy(host_.data() + g.outs + k * sizeof(double*), &recs[k]->out, sizeof(double*));
      groups_.push_back(g);
    };
    std::vector<const Record*> recs;
    if (together) {
      const std::size_t sites = lists_[who[0]].size();
      for (std::size_t k = 0; k < sites; ++k) {
        recs.clear();
        for (int b : who) recs.push_back(&lists_[b][k]);
        add_group(recs);
      }
    } else {
      for (int b : who)
        for (const Record& r : lists_[b]) add_group({&r});
    }
    unsigned char* dev = upload(tag);
    for (const Group& g : groups_)
      g.rec.run(dev + g.fs, reinterpret_cast<double* const*>(dev + g.outs), g.n, g.rec.range);
    for (int b : who) {
      lists_[b].clear();
      bytes_[b].clear();
    }
    last_together_ = together;
  }
  // Whether the last flush launched each stage once for all its members.
  bool last_flush_batched() const { return last_together_; }

 private:
  using Runner = void (*)(const unsigned char* fs, double* const* outs, int n, const int* range);
  struct Record {
    Runner run;
    int range[4];
    std::size_t offset, size, align;
    double* out;
    int member;
  };
  struct Group {
    Record rec;
    int n;
    std::size_t fs, outs;
  };
  struct Uploaded {
    int tag;
    std::vector<unsigned char> host;
    DeviceArray<Exec, unsigned char> dev;
  };

  template <class A, void (*Run)(const A*, int, const int*)>
  static void run_custom(const unsigned char* fs, double* const*, int n, const int* r) {
    Run(reinterpret_cast<const A*>(fs), n, r);
  }
  template <class F>
  static void run_for_each(const unsigned char* fs, double* const*, int n, const int* r) {
    Exec::for_each_batch(r[0], r[1], r[2], r[3], reinterpret_cast<const F*>(fs), n);
  }
  template <class F>
  static void run_max(const unsigned char* fs, double* const* outs, int n, const int* r) {
    Exec::reduce_max_batch_into(r[0], r[1], r[2], r[3], reinterpret_cast<const F*>(fs), outs, n);
  }
  template <class F>
  static void run_sum(const unsigned char* fs, double* const* outs, int n, const int* r) {
    Exec::reduce_sum_batch_into(r[0], r[1], r[2], r[3], reinterpret_cast<const F*>(fs), outs, n);
  }

  template <class F>
  static constexpr bool copyable() {
    return std::is_trivially_copyable_v<F>;
  }
  void add(Runner run, int i0, int i1, int j0, int j1, const void* f, std::size_t size, std::size_t align,
           double* out) {
    if (cur_ < 0 || cur_ >= members()) throw std::logic_error("BatchRecorder: no member set");
    if (bytes_.size() != lists_.size()) bytes_.resize(lists_.size());
    std::vector<unsigned char>& by = bytes_[cur_];
    const std::size_t at = (by.size() + align - 1) / align * align;
    by.resize(at + size);
    std::memcpy(by.data() + at, f, size);
    lists_[cur_].push_back(Record{run, {i0, i1, j0, j1}, at, size, align, out, cur_});
  }

  bool same_sequences(const std::vector<int>& who) const {
    const auto& a = lists_[who[0]];
    for (std::size_t m = 1; m < who.size(); ++m) {
      const auto& b = lists_[who[m]];
      if (b.size() != a.size()) return false;
      for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k].run != b[k].run || std::memcmp(a[k].range, b[k].range, sizeof a[k].range) != 0) return false;
    }
    return true;
  }

  // The flush's bytes in backend memory: the buffer of the last flush with this tag
  // when the bytes are the same, else a fresh upload into it. An upload waits for the
  // launches before it (the CUDA backend's copies are ordered on the default stream),
  // so a buffer that earlier launches still read is never overwritten under them.
  unsigned char* upload(int tag) {
    Uploaded* u = nullptr;
    for (Uploaded& x : cache_)
      if (x.tag == tag) u = &x;
    if (!u) {
      cache_.push_back(Uploaded{tag, {}, {}});
      u = &cache_.back();
    }
    if (u->host.size() == host_.size() && std::memcmp(u->host.data(), host_.data(), host_.size()) == 0)
      return u->dev.data();
    if (u->dev.size() < host_.size()) u->dev = DeviceArray<Exec, unsigned char>(host_.size() * 2);
    Exec::upload(u->dev.data(), host_.data(), host_.size());
    u->host = host_;
    return u->dev.data();
  }

  std::vector<std::vector<Record>> lists_;
  std::vector<std::vector<unsigned char>> bytes_;
  std::vector<unsigned char> host_;
  std::vector<Group> groups_;
  std::vector<Uploaded> cache_;  // one per tag (a handful)
  int cur_ = -1;
  bool last_together_ = false;
};

}  // namespace flowlua
