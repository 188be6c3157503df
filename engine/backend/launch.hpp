// How a model's stage code reaches its backend. A stage written against a launcher
// `l` (l.for_each, l.reduce_max_into, l.reduce_sum_into) runs unchanged either
// directly (DirectLaunch: the same static Exec calls as before, inlined) or recorded
// for a batch of simulations (BatchRecorder, backend/batch_launch.hpp), which then
// launches each stage once for all members.
#pragma once
#include "core/hd.hpp"

namespace flowlua {

// The one-thread stage after a reduction (Exec::reduce_*_into_then) when there is
// none: the reduction alone, in one launch on CUDA.
struct NothingAfter {
  template <class... I>
  FL_HD void operator()(I...) const {}
};

// f, where the gate (in backend memory) is open: a launch whose work a device-side
// decision may have cancelled (the SOR sweeps after the stop, linalg/sor_device.hpp).
// The CUDA backend tests the gate in every thread; the CPU backend once, before the
// loop (Exec::for_each_gated).
template <class G, class F>
struct GatedPoint {
  G gate;
  F f;
  template <class... I>
  FL_HD void operator()(I... ix) const {
    if (gate.open()) f(ix...);
  }
};

template <class Exec>
struct DirectLaunch {
  template <class F>
  void for_each(int i0, int i1, int j0, int j1, const F& f) const {
    Exec::for_each(i0, i1, j0, j1, f);
  }
  template <class F>
  void reduce_max_into(int i0, int i1, int j0, int j1, const F& f, double* out) const {
    Exec::reduce_max_into(i0, i1, j0, j1, f, out);
  }
  template <class F>
  void reduce_sum_into(int i0, int i1, int j0, int j1, const F& f, double* out) const {
    Exec::reduce_sum_into(i0, i1, j0, j1, f, out);
  }
};

}  // namespace flowlua
