// flowlua_bench_tridiagonal: the batched tridiagonal solvers (engine/linalg/tridiagonal)
// against cuSPARSE in the same run, on the GPU. cuSPARSE is linked here only.
//
// For each size "count x n" (count systems of n unknowns, the lines of an n x n field),
// each precision and each direction:
//   y: lines along y, interleaved (unknown k of line l at k * count + l), the layout of
//      cusparse<t>gtsvInterleavedBatch, timed with each of its algorithms (0 Thomas,
//      1 LU with pivoting, 2 QR); the best is the reference;
//   x: lines along x, contiguous (unknown k of line l at l * n + k), the layout of
//      cusparse<t>gtsv2StridedBatch (CR + PCR), timed too;
// and every flowlua algorithm on both. Bytes moved = what a solve must move: a, b, c, d
// read and x written once, 5 n count sizeof(Real); GB/s and the percentage of the copy
// bandwidth (cudaMemcpy device to device of 512 MiB, read plus write) measured here.
// Time: median of --repeats solves (CUDA events), after one warm-up; cuSPARSE's arrays
// are restored outside the timed region (gtsvInterleavedBatch may overwrite them).
// Each answer is checked: max |A x - d| / (max|A| max|x|) over 64 sampled lines.
//
//   flowlua_bench_tridiagonal [--sizes 1024,4096] [--repeats 10] [--csv out.csv]
// (exit 77 without a CUDA device, 2 on bad options)
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "linalg/tridiagonal/batch_solve.hpp"
#include "sim/solver.hpp"

using namespace flowlua;
using namespace flowlua::tridiag;

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(cusparseStatus_t e, const char* what) {
  if (e != CUSPARSE_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuSPARSE status " + std::to_string(int(e)));
}

template <class T>
struct Buf {
  T* p = nullptr;
  size_t n = 0;
  explicit Buf(size_t n_) : n(n_) { check(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)), "cudaMalloc"); }
  ~Buf() { cudaFree(p); }
  Buf(const Buf&) = delete;
};

// Median time (ms) of `repeats` runs of f, each after prepare() (not timed).
double median_ms(int repeats, const std::function<void()>& prepare, const std::function<void()>& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  prepare();
  f();  // warm-up
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    prepare();
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    check(cudaEventSynchronize(b), "timed run");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double copy_bandwidth_gbs(int repeats) {
  const size_t bytes = size_t(512) << 20;
  Buf<char> s(bytes), d(bytes);
  cudaMemset(s.p, 1, bytes);
  const double ms = median_ms(repeats, [] {}, [&] { cudaMemcpyAsync(d.p, s.p, bytes, cudaMemcpyDeviceToDevice); });
  return 2.0 * bytes / (ms * 1e6);
}

struct Row {
  std::string precision, dir, solver;
  int n, count;
  double ms, gbs, pct_copy, residual;
};

template <class Real>
double sampled_residual(const std::vector<Real>& a, const std::vector<Real>& b, const std::vector<Real>& c,
                        const std::vector<Real>& d, const std::vector<Real>& x, const LineBatch& L) {
  double r = 0, amax = 0, xmax = 0;
  for (int s = 0; s < 64; ++s) {
    const int l = int((long(s) * 7919) % L.count);
    for (int k = 0; k < L.n; ++k) {
      const long i = L.index(l, k);
      double v = double(b[i]) * x[i] - d[i];
      if (k > 0) v += double(a[i]) * x[L.index(l, k - 1)];
      if (k < L.n - 1) v += double(c[i]) * x[L.index(l, k + 1)];
      r = std::max(r, std::abs(v));
      amax = std::max(amax, std::abs(double(a[i])) + std::abs(double(b[i])) + std::abs(double(c[i])));
      xmax = std::max(xmax, std::abs(double(x[i])));
    }
  }
  return r / (amax * xmax);
}

template <class Real>
void bench_size(int n, int repeats, double copy_gbs, std::vector<Row>& out) {
  const int count = n;
  const size_t N = size_t(n) * count;
  const char* prec = sizeof(Real) == 4 ? "float" : "double";
  // Diagonally dominant by at least 1, so that repeated solves in place stay bounded.
  std::vector<Real> a(N), b(N), c(N), d(N);
  std::mt19937 gen(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (size_t i = 0; i < N; ++i) {
    a[i] = Real(u(gen)), c[i] = Real(u(gen)), d[i] = Real(u(gen));
    b[i] = Real(std::abs(double(a[i])) + std::abs(double(c[i])) + 1 + std::abs(u(gen)));
  }
  Buf<Real> A(N), B(N), C(N), D(N), X(N), S(solve_scratch(field_lines(LineDir::X, n, count, n))), A0(N), B0(N), C0(N);
  auto up = [](Buf<Real>& dst, const std::vector<Real>& h) {
    check(cudaMemcpy(dst.p, h.data(), h.size() * sizeof(Real), cudaMemcpyHostToDevice), "upload");
  };
  const double bytes = 5.0 * N * sizeof(Real);
  std::vector<Real> x(N);
  auto record = [&](const char* dir, const std::string& solver, double ms, const LineBatch& L) {
    check(cudaMemcpy(x.data(), X.p, N * sizeof(Real), cudaMemcpyDeviceToHost), "download");
    const double gbs = bytes / (ms * 1e6);
    out.push_back({prec, dir, solver, n, count, ms, gbs, 100 * gbs / copy_gbs, sampled_residual(a, b, c, d, x, L)});
    const Row& r = out.back();
    std::printf("| %-6s | %d x %d | %s | %-28s | %9.4f | %7.1f | %5.1f%% | %.1e |\n", prec, count, n, dir,
                solver.c_str(), r.ms, r.gbs, r.pct_copy, r.residual);
    std::fflush(stdout);
  };
  up(A, a), up(B, b), up(C, c), up(D, d);
  cusparseHandle_t h;
  check(cusparseCreate(&h), "cusparseCreate");
  for (const char* dir : {"y", "x"}) {
    // The same numbers, laid out along the direction: line l, unknown k.
    const LineBatch L = field_lines(dir[0] == 'x' ? LineDir::X : LineDir::Y, n, count, n);
    for (Algorithm alg : kAllAlgorithms) {
      std::string why;
      if (!supports(alg, L, false, true, sizeof(Real), &why)) {
        std::printf("| %-6s | %d x %d | %s | %-28s | skipped: %s |\n", prec, count, n, dir, algorithm_name(alg), why.c_str());
        continue;
      }
      const double ms = median_ms(repeats, [] {}, [&] { solve_arrays_cuda<Real>(alg, L, false, A.p, B.p, C.p, D.p, X.p, S.p); });
      record(dir, algorithm_name(alg), ms, L);
    }
    // cuSPARSE on the same layout: it solves in place (x = d on entry).
    auto restore = [&] {
      cudaMemcpyAsync(X.p, D.p, N * sizeof(Real), cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(A0.p, A.p, N * sizeof(Real), cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(B0.p, B.p, N * sizeof(Real), cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(C0.p, C.p, N * sizeof(Real), cudaMemcpyDeviceToDevice);
    };
    // cuSPARSE wants a_0 = 0 and c_{n-1} = 0 (they are the corner entries there).
    std::vector<Real> a2 = a, c2 = c;
    for (int l = 0; l < count; ++l) a2[L.index(l, 0)] = 0, c2[L.index(l, n - 1)] = 0;
    Buf<Real> AZ(N), CZ(N);
    up(AZ, a2), up(CZ, c2);
    auto restore_z = [&] {
      restore();
      cudaMemcpyAsync(A0.p, AZ.p, N * sizeof(Real), cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(C0.p, CZ.p, N * sizeof(Real), cudaMemcpyDeviceToDevice);
    };
    if (dir[0] == 'y') {
      for (int algo = 0; algo <= 2; ++algo) {
        size_t sz = 0;
        if constexpr (sizeof(Real) == 4)
          check(cusparseSgtsvInterleavedBatch_bufferSizeExt(h, algo, n, A0.p, B0.p, C0.p, X.p, count, &sz), "bufferSize");
        else
          check(cusparseDgtsvInterleavedBatch_bufferSizeExt(h, algo, n, A0.p, B0.p, C0.p, X.p, count, &sz), "bufferSize");
        Buf<char> work(sz);
        const double ms = median_ms(repeats, restore_z, [&] {
          if constexpr (sizeof(Real) == 4)
            check(cusparseSgtsvInterleavedBatch(h, algo, n, A0.p, B0.p, C0.p, X.p, count, work.p), "gtsvInterleavedBatch");
          else
            check(cusparseDgtsvInterleavedBatch(h, algo, n, A0.p, B0.p, C0.p, X.p, count, work.p), "gtsvInterleavedBatch");
        });
        record(dir, "cusparse_interleaved_algo" + std::to_string(algo), ms, L);
      }
    } else {
      size_t sz = 0;
      if constexpr (sizeof(Real) == 4)
        check(cusparseSgtsv2StridedBatch_bufferSizeExt(h, n, A0.p, B0.p, C0.p, X.p, count, n, &sz), "bufferSize");
      else
        check(cusparseDgtsv2StridedBatch_bufferSizeExt(h, n, A0.p, B0.p, C0.p, X.p, count, n, &sz), "bufferSize");
      Buf<char> work(sz);
      const double ms = median_ms(repeats, restore_z, [&] {
        if constexpr (sizeof(Real) == 4)
          check(cusparseSgtsv2StridedBatch(h, n, A0.p, B0.p, C0.p, X.p, count, n, work.p), "gtsv2StridedBatch");
        else
          check(cusparseDgtsv2StridedBatch(h, n, A0.p, B0.p, C0.p, X.p, count, n, work.p), "gtsv2StridedBatch");
      });
      record(dir, "cusparse_strided", ms, L);
    }
  }
  cusparseDestroy(h);
}

}  // namespace

// Options by hand (no CLI11), so that the program also builds with nvcc alone on the
// GPU machine (tests/gpu/bench_tridiagonal_on_device.sh).
int usage(const char* msg) {
  std::fprintf(stderr, "flowlua_bench_tridiagonal: %s\nusage: flowlua_bench_tridiagonal [--sizes 1024,4096] "
               "[--repeats 10] [--csv out.csv]\n", msg);
  return 2;
}

int main(int argc, char** argv) {
  std::vector<int> sizes{1024, 4096};
  int repeats = 10;
  std::string csv;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    if (i + 1 >= argc) return usage(("missing value after " + opt).c_str());
    const std::string val = argv[++i];
    if (opt == "--sizes") {
      sizes.clear();
      for (std::size_t pos = 0; pos <= val.size();) {
        const std::size_t end = std::min(val.find(',', pos), val.size());
        const int v = std::atoi(val.substr(pos, end - pos).c_str());
        if (v < 3) return usage(("--sizes: '" + val + "' is not a list of sizes >= 3").c_str());
        sizes.push_back(v);
        pos = end + 1;
      }
    } else if (opt == "--repeats") {
      repeats = std::atoi(val.c_str());
      if (repeats < 1) return usage("--repeats must be at least 1");
    } else if (opt == "--csv") {
      csv = val;
    } else {
      return usage(("unknown option " + opt).c_str());
    }
  }
  std::string why;
  if (!cuda_available(&why)) {
    std::fprintf(stderr, "flowlua_bench_tridiagonal: no CUDA device (%s)\n", why.c_str());
    return 77;
  }
  try {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    const double copy = copy_bandwidth_gbs(repeats);
    std::printf("device: %s; copy bandwidth %.0f GB/s (512 MiB device to device, read + write)\n\n", prop.name, copy);
    std::printf("| precision | systems x n | lines | solver | ms | GB/s | %% copy | residual |\n|---|---|---|---|---|---|---|---|\n");
    std::vector<Row> rows;
    for (int n : sizes) {
      bench_size<float>(n, repeats, copy, rows);
      bench_size<double>(n, repeats, copy, rows);
    }
    if (!csv.empty()) {
      std::ofstream f(csv);
      f << "precision,count,n,lines,solver,ms,gbs,pct_copy,residual\n";
      for (const auto& r : rows)
        f << r.precision << ',' << r.count << ',' << r.n << ',' << r.dir << ',' << r.solver << ',' << r.ms << ','
          << r.gbs << ',' << r.pct_copy << ',' << r.residual << '\n';
      if (!f) throw std::runtime_error("cannot write " + csv);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flowlua_bench_tridiagonal: %s\n", e.what());
    return 1;
  }
  return 0;
}
