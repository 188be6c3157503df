#include "bench/bench.hpp"

#include <algorithm>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "sim/solver.hpp"

namespace flowlua::bench {

double copy_bandwidth_cpu(std::size_t bytes, int repeats);
std::vector<Row> bench_projection_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_lbm_swe_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_fractional_step_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_fractional_step3_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_projection_batch_cpu(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
#ifdef FLOWLUA_HAVE_CUDA
double copy_bandwidth_cuda(std::size_t bytes, int repeats);
std::vector<Row> bench_projection_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_lbm_swe_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_fractional_step_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_fractional_step3_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::vector<Row> bench_projection_batch_cuda(int n, Precision p, const Options& opt, int repeats, double copy_gbs);
std::string cuda_device_name();
#endif

Report run(const Options& opt, std::FILE* log) {
  std::string why;
  const bool cuda = opt.backend != BackendChoice::Cpu && cuda_available(&why);
  if (opt.backend == BackendChoice::Cuda && !cuda)
    throw BackendError("backend \"cuda\" was asked for, but " + why);
  if (opt.model != "projection" && opt.model != "fractional_step" && opt.model != "fractional_step_3d" &&
      opt.model != "projection_batch")
    throw CaseError("--bench-model: no model '" + opt.model +
                    "' in the harness (projection, fractional_step, fractional_step_3d, projection_batch)");
  const bool fs3 = opt.model == "fractional_step_3d";
  const bool fs = opt.model == "fractional_step" || fs3;
  const bool batch = opt.model == "projection_batch";  // flow.batch: batch_bench.hpp
  Report rep;
  std::vector<int> sizes = opt.sizes;
  if (sizes.empty() && batch) sizes = {64, 128};
  if (sizes.empty()) sizes = cuda ? std::vector<int>{128, 256, 512, 1024, 2048, 4096, 8192}
                                  : std::vector<int>{128, 256, 512, 1024, 2048};
  if (fs3 && opt.sizes.empty()) sizes = cuda ? std::vector<int>{64, 128, 256, 512} : std::vector<int>{32, 64, 128};
  const int repeats = opt.repeats > 0 ? opt.repeats : (cuda ? 30 : 11);
  // The copy is 1 GiB on the GPU (far past the 50 MB L2), 256 MiB on the CPU.
  const std::size_t copy_bytes = cuda ? (std::size_t(1) << 30) : (std::size_t(1) << 28);
#ifdef FLOWLUA_HAVE_CUDA
  if (cuda) {
    rep.device = "cuda: " + cuda_device_name();
    rep.copy_gbytes_per_s = copy_bandwidth_cuda(copy_bytes, repeats);
  }
#endif
  if (!cuda) {
    rep.device = "cpu: " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads (OpenMP)";
    rep.copy_gbytes_per_s = copy_bandwidth_cpu(copy_bytes, repeats);
  }
  rep.model = opt.model;
  if (log) std::fprintf(log, "bench: %s; copy bandwidth %.1f GB/s (read + write)\n", rep.device.c_str(),
                        rep.copy_gbytes_per_s);
  for (Precision p : opt.precisions)
    for (int n : sizes) {
      if (log) {
        if (fs3) std::fprintf(log, "bench: %s %d^3 ...\n", precision_name(p), n);
        else std::fprintf(log, "bench: %s %d x %d ...\n", precision_name(p), n, n);
        std::fflush(log);
      }
      std::vector<Row> rows;
      if (batch) {
#ifdef FLOWLUA_HAVE_CUDA
        if (cuda) rows = bench_projection_batch_cuda(n, p, opt, repeats, rep.copy_gbytes_per_s);
#endif
        if (!cuda) rows = bench_projection_batch_cpu(n, p, opt, repeats, rep.copy_gbytes_per_s);
        rep.rows.insert(rep.rows.end(), rows.begin(), rows.end());
        continue;
      }
#ifdef FLOWLUA_HAVE_CUDA
      if (cuda) rows = fs3  ? bench_fractional_step3_cuda(n, p, opt, repeats, rep.copy_gbytes_per_s)
                       : fs ? bench_fractional_step_cuda(n, p, opt, repeats, rep.copy_gbytes_per_s)
                            : bench_projection_cuda(n, p, opt, repeats, rep.copy_gbytes_per_s);
#endif
      if (!cuda) rows = fs3  ? bench_fractional_step3_cpu(n, p, opt, repeats, rep.copy_gbytes_per_s)
                        : fs ? bench_fractional_step_cpu(n, p, opt, repeats, rep.copy_gbytes_per_s)
                             : bench_projection_cpu(n, p, opt, repeats, rep.copy_gbytes_per_s);
      rep.rows.insert(rep.rows.end(), rows.begin(), rows.end());
      if (fs) continue;
      // with the projection stages, the lattice-Boltzmann shallow-water step (lbm_swe_bench.hpp)
#ifdef FLOWLUA_HAVE_CUDA
      if (cuda) rows = bench_lbm_swe_cuda(n, p, opt, repeats, rep.copy_gbytes_per_s);
#endif
      if (!cuda) rows = bench_lbm_swe_cpu(n, p, opt, repeats, rep.copy_gbytes_per_s);
      rep.rows.insert(rep.rows.end(), rows.begin(), rows.end());
    }
  return rep;
}

namespace {
std::string num(double x, int prec = 4) {
  std::ostringstream s;
  s.precision(prec);
  s << x;
  return s.str();
}
}  // namespace

std::string table(const Report& r) {
  std::ostringstream s;
  s << "device: " << r.device << "\n";
  s << "model: " << r.model << "\n";
  s << "copy bandwidth: " << num(r.copy_gbytes_per_s) << " GB/s (device-to-device, read + write)\n\n";
  s << "| precision | n | stage | variant | median us | cell updates/s | min bytes (MB) | GB/s | of copy |\n";
  s << "|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& w : r.rows) {
    s << "| " << w.precision << " | " << w.n << " | " << w.stage << " | " << w.variant << " | "
      << num(w.median_ms * 1e3) << " | " << num(w.cell_updates_per_s, 3) << " | ";
    if (w.min_bytes > 0)
      s << num(w.min_bytes / 1e6) << " | " << num(w.gbytes_per_s) << " | " << num(100 * w.fraction_of_copy, 3)
        << "% |\n";
    else
      s << "- | - | - |\n";
  }
  return s.str();
}

std::string csv(const Report& r) {
  std::ostringstream s;
  s.precision(9);
  s << "device,copy_gbytes_per_s,backend,precision,n,stage,variant,median_ms,min_ms,max_ms,repeats,per_batch,"
       "cell_updates_per_s,min_bytes,gbytes_per_s,fraction_of_copy\n";
  for (const Row& w : r.rows)
    s << '"' << r.device << "\"," << r.copy_gbytes_per_s << ',' << w.backend << ',' << w.precision << ','
      << w.n << ',' << w.stage << ',' << w.variant << ',' << w.median_ms << ',' << w.min_ms << ',' << w.max_ms
      << ',' << w.repeats << ',' << w.per_batch << ',' << w.cell_updates_per_s << ',' << w.min_bytes << ','
      << w.gbytes_per_s << ',' << w.fraction_of_copy << '\n';
  return s.str();
}

std::string json(const Report& r) {
  std::ostringstream s;
  s.precision(9);
  s << "{\n  \"device\": \"" << r.device << "\",\n  \"copy_gbytes_per_s\": " << r.copy_gbytes_per_s
    << ",\n  \"rows\": [\n";
  for (std::size_t k = 0; k < r.rows.size(); ++k) {
    const Row& w = r.rows[k];
    s << "    {\"backend\": \"" << w.backend << "\", \"precision\": \"" << w.precision << "\", \"n\": " << w.n
      << ", \"stage\": \"" << w.stage << "\", \"variant\": \"" << w.variant << "\", \"median_ms\": " << w.median_ms
      << ", \"min_ms\": " << w.min_ms << ", \"max_ms\": " << w.max_ms << ", \"repeats\": " << w.repeats
      << ", \"per_batch\": " << w.per_batch << ", \"cell_updates_per_s\": " << w.cell_updates_per_s
      << ", \"min_bytes\": " << w.min_bytes << ", \"gbytes_per_s\": " << w.gbytes_per_s
      << ", \"fraction_of_copy\": " << w.fraction_of_copy << "}" << (k + 1 < r.rows.size() ? "," : "") << "\n";
  }
  s << "  ]\n}\n";
  return s.str();
}

}  // namespace flowlua::bench
