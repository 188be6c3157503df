// The benchmark harness behind `flowlua --bench`: on the current machine it
// measures the backend's copy bandwidth, then times each stage of a projection step
// and the whole step over a range of grid sizes and precisions, and reports the
// median time, cell updates per second, the bytes each stage must move at least and
// the fraction of the measured copy bandwidth that this amounts to. It is not a
// test: numbers depend on the machine, and nothing here asserts a speed.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "core/config.hpp"

namespace flowlua::bench {

struct Options {
  BackendChoice backend = BackendChoice::Auto;
  std::vector<Precision> precisions{Precision::Float, Precision::Double};
  std::vector<int> sizes;       // n for n x n cavities; empty: the backend's default list
  int repeats = 0;              // timed repeats per row; 0: 30 on the GPU, 11 on the CPU
  int warmup = 3;               // untimed calls first
  std::string csv_path, json_path;  // written atomically when set
  std::string model = "projection";  // whose step: "projection" or "fractional_step"
};

struct Row {
  std::string backend, precision, stage, variant;
  int n = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int repeats = 0, per_batch = 1;
  double cell_updates_per_s = 0;  // n * n / median
  double min_bytes = 0;           // the bytes the stage must move at least (0: not counted)
  double gbytes_per_s = 0;        // min_bytes / median
  double fraction_of_copy = 0;    // gbytes_per_s / measured copy bandwidth
};

struct Report {
  std::string device;             // what ran it
  std::string model = "projection";  // whose stages the rows time
  double copy_gbytes_per_s = 0;   // device-to-device copy, bytes read + written
  std::vector<Row> rows;
};

// Runs the harness; prints progress to `log` and returns the report.
Report run(const Options& opt, std::FILE* log);
std::string table(const Report& r);
std::string csv(const Report& r);
std::string json(const Report& r);

}  // namespace flowlua::bench
