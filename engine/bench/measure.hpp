// Timing for the benchmark harness: the median of many timed repeats after a
// warm-up, on the backend's own clock (CUDA events on the GPU, the steady clock on
// the CPU). Short operations are timed in batches of `per_batch` calls so that a
// repeat is long against the timer's resolution; the result is per call.
#pragma once
#include <algorithm>
#include <vector>

namespace flowlua::bench {

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int repeats = 0, per_batch = 1;
};

template <class Exec, class F>
Timing time_median(F&& op, int warmup, int repeats, int per_batch = 1) {
  for (int k = 0; k < warmup; ++k) op();
  Exec::synchronize();
  typename Exec::Timer timer;
  std::vector<double> ms;
  ms.reserve(repeats);
  for (int r = 0; r < repeats; ++r) {
    timer.start();
    for (int k = 0; k < per_batch; ++k) op();
    ms.push_back(timer.stop_ms() / per_batch);
  }
  std::sort(ms.begin(), ms.end());
  Timing t;
  t.repeats = repeats;
  t.per_batch = per_batch;
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  const std::size_t m = ms.size() / 2;
  t.median_ms = ms.size() % 2 ? ms[m] : 0.5 * (ms[m - 1] + ms[m]);
  return t;
}

}  // namespace flowlua::bench
