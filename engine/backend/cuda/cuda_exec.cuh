// The CUDA backend: memory is device memory, a launch is a 2D grid over the index
// range calling the same point functions the CPU backend calls, a reduction is a
// block reduction (CUB) followed by one small pass and a single scalar copied back.
// Only .cu files include this header.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cub/block/block_reduce.cuh>
#include <string>
#include <utility>

#include "backend/launch.hpp"
#include "core/error.hpp"

namespace flowlua {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw BackendError(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

namespace cuda_detail {

constexpr int kBlockX = 32, kBlockY = 8;

// The stream every launch and asynchronous copy of this backend goes to: the legacy
// default stream (0), except while a step is being captured into a CUDA graph
// (backend/cuda/step_graph.cuh), when it is the capturing stream. Synchronous copies
// (upload, download, read_scalars) stay on the legacy stream: inside a capture they
// are refused, which is how a capture finds out that a step needs the host.
inline cudaStream_t& launch_stream() {
  static thread_local cudaStream_t s = nullptr;
  return s;
}
constexpr int kReduceThreads = 256;
constexpr int kReduceBlocks = 8192;  // at most this many partial results

// Programmatic dependent launch (Hopper and later; issue 12). Inside a recorded step
// (backend/cuda/step_graph.cuh, StepGraph::capture with `programmatic`) a kernel that
// follows another kernel is launched with cudaLaunchAttributeProgrammaticStreamSerialization:
// the graph's edge becomes programmatic, and the kernel may be scheduled as soon as
// every block of the one before has passed pdl_enter(), instead of after its last
// block has exited. Every kernel launched through launch() below starts with
// pdl_enter(): griddepcontrol.wait returns once the kernels it depends on have
// completed and their writes are visible (not merely triggered), so nothing is read
// or written before its predecessor is done, and since every kernel of the chain
// waits so, a kernel also sees the writes of all kernels before its predecessor. Then
// griddepcontrol.launch_dependents lets the next kernel's launch and block scheduling
// overlap this kernel's work and tail. Launched without the attribute (direct
// launches, graphs recorded without it) both instructions do nothing. Kernels launched
// otherwise (<<<>>>: the batch kernels, other solvers' kernels, set_condition_kernel)
// never get the attribute; one of them before a kernel of launch() is safe, since the
// wait also covers a predecessor that never triggers (it then counts as triggered when
// it exits).
__device__ __forceinline__ void pdl_enter() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Set by StepGraph::capture for the launches of a recording that asks for programmatic
// edges (thread-local, like the launch stream); programmatic_edges counts them.
struct ProgrammaticCapture {
  bool on = false;
  long edges = 0;
};
inline ProgrammaticCapture& programmatic_capture() {
  static thread_local ProgrammaticCapture p;
  return p;
}

// Whether this device has programmatic dependent launch (compute capability 9.0+).
inline bool programmatic_launch_supported() {
  static const bool ok = [] {
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return major >= 9;
  }();
  return ok;
}

// A programmatic edge only where it is asked for, the stream is recording, and the
// launch depends on exactly one node, a kernel (after a copy, a conditional node or
// at the start of a graph the ordinary edge stays).
inline bool programmatic_edge(cudaStream_t s) {
  if (!programmatic_capture().on || !s) return false;
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  const cudaGraphNode_t* deps = nullptr;
  std::size_t n = 0;
  if (cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr, &n) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  if (st != cudaStreamCaptureStatusActive || n != 1) return false;
  cudaGraphNodeType type;
  if (cudaGraphNodeGetType(deps[0], &type) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return type == cudaGraphNodeTypeKernel;
}

// Every launch of this backend's step kernels: on the launch stream, with a
// programmatic edge where programmatic_edge says so. The kernel must begin with
// pdl_enter().
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, const char* what, Args&&... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 0;
  cfg.stream = launch_stream();
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  if (programmatic_edge(cfg.stream)) {
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    ++programmatic_capture().edges;
  }
  cuda_check(cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...), what);
}

template <class F>
__global__ void for_each_kernel(int i0, int i1, int j0, int j1, F f) {
  pdl_enter();
  int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  int j = j0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  if (i <= i1 && j <= j1) f(i, j);
}

// The same with a register budget: the compiler must fit kMinBlocks blocks of
// kBlockX * kBlockY threads on a multiprocessor (65536 / (256 kMinBlocks) registers a
// thread), for memory-bound kernels whose occupancy the register count limits.
template <int kMinBlocks, class F>
__global__ void __launch_bounds__(kBlockX * kBlockY, kMinBlocks)
    for_each_bounded_kernel(int i0, int i1, int j0, int j1, F f) {
  pdl_enter();
  int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  int j = j0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  if (i <= i1 && j <= j1) f(i, j);
}

template <class F>
__global__ void for_each3_kernel(int i0, int i1, int j0, int j1, int k0, int k1, F f) {
  pdl_enter();
  int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  int j = j0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  int k = k0 + int(blockIdx.z);
  if (i <= i1 && j <= j1 && k <= k1) f(i, j, k);
}

// Two small ranges one after the other in one block (CudaExec::for_each_in_turn): the
// block's threads stride over f1's cells, wait for each other (after __syncthreads the
// block's global writes are visible to all its threads), then over f2's.
constexpr int kInTurnThreads = 512;
template <class F>
__device__ __forceinline__ void block_stride(int i0, int i1, int j0, int j1, const F& f) {
  const int w = i1 - i0 + 1, n = w * (j1 - j0 + 1);
  for (int k = int(threadIdx.x); k < n; k += int(blockDim.x)) f(i0 + k % w, j0 + k / w);
}
template <class F1, class F2>
__global__ void __launch_bounds__(kInTurnThreads) in_turn_kernel(int i0, int i1, int j0, int j1, F1 f1, int k0,
                                                                  int k1, int l0, int l1, F2 f2) {
  pdl_enter();
  block_stride(i0, i1, j0, j1, f1);
  __syncthreads();
  block_stride(k0, k1, l0, l1, f2);
}

// A 3D reduction runs as the 2D one over rows r = (j - j0) + ny (k - k0).
template <class F>
struct Rows3 {
  F f;
  int j0, ny, k0;
  __device__ double operator()(int i, int r) const { return f(i, j0 + r % ny, k0 + r / ny); }
};

struct MaxOp {
  __device__ double operator()(double a, double b) const {
    if (a != a || b != b) return NAN;  // a NaN anywhere survives the reduction
    return a > b ? a : b;
  }
  static constexpr double identity = -INFINITY;
};
struct SumOp {
  __device__ double operator()(double a, double b) const { return a + b; }
  static constexpr double identity = 0.0;
};

// The blocks in x cover a row (one element per thread), the blocks in y stride
// over rows; each thread walks down its column with the loop unrolled, so it has
// several loads in flight (the sum waits for its operands, the next loads need
// not). Each block leaves one partial result; no integer division per element.
template <class Op, class F>
__global__ void reduce_kernel(int i0, int i1, int j0, int j1, F f, double* partial) {
  pdl_enter();
  using BlockReduce = cub::BlockReduce<double, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage tmp;
  Op op;
  double acc = Op::identity;
  const int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= i1) {
#pragma unroll 4
    for (int j = j0 + int(blockIdx.y); j <= j1; j += int(gridDim.y)) acc = op(acc, f(i, j));
  }
  double r = BlockReduce(tmp).Reduce(acc, op);
  if (threadIdx.x == 0) partial[blockIdx.y * gridDim.x + blockIdx.x] = r;
}

template <class Op>
__global__ void finish_kernel(const double* partial, int n, double* out) {
  pdl_enter();
  using BlockReduce = cub::BlockReduce<double, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage tmp;
  Op op;
  double acc = Op::identity;
  for (int k = threadIdx.x; k < n; k += blockDim.x) acc = op(acc, partial[k]);
  double r = BlockReduce(tmp).Reduce(acc, op);
  if (threadIdx.x == 0) *out = r;
}

// Batches (backend/batch_launch.hpp): member z = blockIdx.z runs fs[z] over the
// same range. The point function is read in place from the batch's upload.
template <class F>
__global__ void for_each_batch_kernel(int i0, int i1, int j0, int j1, const F* __restrict__ fs) {
  int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  int j = j0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  if (i <= i1 && j <= j1) fs[blockIdx.z](i, j);
}

// As reduce_kernel, member z's partial results at partial[z * gridDim.x * gridDim.y ...].
template <class Op, class F>
__global__ void reduce_batch_kernel(int i0, int i1, int j0, int j1, const F* __restrict__ fs, double* partial) {
  using BlockReduce = cub::BlockReduce<double, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage tmp;
  Op op;
  const F& f = fs[blockIdx.z];
  double acc = Op::identity;
  const int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= i1) {
#pragma unroll 4
    for (int j = j0 + int(blockIdx.y); j <= j1; j += int(gridDim.y)) acc = op(acc, f(i, j));
  }
  double r = BlockReduce(tmp).Reduce(acc, op);
  if (threadIdx.x == 0) partial[(std::size_t(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x] = r;
}

// One block per member: its partial results into *outs[blockIdx.x].
template <class Op>
__global__ void finish_batch_kernel(const double* partial, int per_member, double* const* outs) {
  using BlockReduce = cub::BlockReduce<double, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage tmp;
  Op op;
  const double* p = partial + std::size_t(blockIdx.x) * per_member;
  double acc = Op::identity;
  for (int k = threadIdx.x; k < per_member; k += blockDim.x) acc = op(acc, p[k]);
  double r = BlockReduce(tmp).Reduce(acc, op);
  if (threadIdx.x == 0) *outs[blockIdx.x] = r;
}

// The partial results of batched reductions: grown as batches need, never shrunk.
inline double* batch_scratch(std::size_t n) {
  static double* buf = nullptr;
  static std::size_t size = 0;
  if (n > size) {
    if (buf) {
      cuda_check(cudaDeviceSynchronize(), "synchronize (batch scratch)");
      cudaFree(buf);
    }
    buf = nullptr;
    cuda_check(cudaMalloc(&buf, n * sizeof(double)), "cudaMalloc(batch scratch)");
    size = n;
  }
  return buf;
}

template <class Op, class F>
void reduce_batch_into(int i0, int i1, int j0, int j1, const F* fs, double* const* outs, int n) {
  const int width = i1 - i0 + 1, height = j1 - j0 + 1;
  if (n <= 0 || width <= 0 || height <= 0) return;
  // About 4096 blocks over the whole batch, at least one row band per member.
  const int bx = (width + kReduceThreads - 1) / kReduceThreads;
  const int by = std::max(1, std::min(height, 4096 / (bx * n)));
  double* buf = batch_scratch(std::size_t(bx) * by * n);
  for (int z0 = 0; z0 < n; z0 += 65535) {  // the grid's z limit
    const int nz = std::min(n - z0, 65535);
    reduce_batch_kernel<Op><<<dim3(bx, by, nz), kReduceThreads, 0, launch_stream()>>>(i0, i1, j0, j1, fs + z0,
                                                                 buf + std::size_t(z0) * bx * by);
    cuda_check(cudaGetLastError(), "reduce_batch_kernel launch");
  }
  finish_batch_kernel<Op><<<n, kReduceThreads, 0, launch_stream()>>>(buf, bx * by, outs);
  cuda_check(cudaGetLastError(), "finish_batch_kernel launch");
}

// reduce_kernel and finish_kernel in one launch: each block leaves its partial
// result, and the last block to finish (counted atomically in *count) adds the
// partials exactly as finish_kernel does (the same loop, the same block reduction:
// the same bits), writes *out, runs then(0, 0) on one thread and resets the count.
// One graph node instead of two, and a one-thread stage after a reduction (dt from
// the maxima, the SOR's checks) rides along.
template <class Op, class F, class Then>
__global__ void reduce_then_kernel(int i0, int i1, int j0, int j1, F f, double* partial, unsigned* count,
                                   double* out, Then then) {
  pdl_enter();
  using BlockReduce = cub::BlockReduce<double, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage tmp;
  __shared__ bool last;
  Op op;
  double acc = Op::identity;
  const int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= i1) {
#pragma unroll 4
    for (int j = j0 + int(blockIdx.y); j <= j1; j += int(gridDim.y)) acc = op(acc, f(i, j));
  }
  const double r = BlockReduce(tmp).Reduce(acc, op);
  const unsigned blocks = gridDim.x * gridDim.y;
  if (threadIdx.x == 0) {
    partial[blockIdx.y * gridDim.x + blockIdx.x] = r;
    __threadfence();  // the partial is visible before the count says so
    last = atomicAdd(count, 1u) == blocks - 1;
  }
  __syncthreads();  // also before tmp is used again
  if (!last) return;
  __threadfence();
  double a = Op::identity;
  for (int k = threadIdx.x; k < int(blocks); k += blockDim.x) a = op(a, __ldcg(partial + k));
  const double total = BlockReduce(tmp).Reduce(a, op);
  if (threadIdx.x == 0) {
    *out = total;
    *count = 0;
    then(0, 0);
  }
}

// Two maxima in one pass (f1 and f2 over the same range: u and v read once), the
// partials of f2 after those of f1, finished by the last block as above; each result
// is the one reduce_then_kernel gives for its function alone.
template <class F1, class F2, class Then>
__global__ void reduce_max2_then_kernel(int i0, int i1, int j0, int j1, F1 f1, F2 f2, double* partial,
                                        unsigned* count, double* out1, double* out2, Then then) {
  pdl_enter();
  using BlockReduce = cub::BlockReduce<double, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage tmp;
  __shared__ bool last;
  MaxOp op;
  double a1 = MaxOp::identity, a2 = MaxOp::identity;
  const int i = i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= i1) {
#pragma unroll 4
    for (int j = j0 + int(blockIdx.y); j <= j1; j += int(gridDim.y)) {
      a1 = op(a1, f1(i, j));
      a2 = op(a2, f2(i, j));
    }
  }
  const double r1 = BlockReduce(tmp).Reduce(a1, op);
  __syncthreads();  // before tmp is used again
  const double r2 = BlockReduce(tmp).Reduce(a2, op);
  const unsigned blocks = gridDim.x * gridDim.y;
  if (threadIdx.x == 0) {
    const unsigned k = blockIdx.y * gridDim.x + blockIdx.x;
    partial[k] = r1;
    partial[blocks + k] = r2;
    __threadfence();
    last = atomicAdd(count, 1u) == blocks - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double b1 = MaxOp::identity, b2 = MaxOp::identity;
  for (int k = threadIdx.x; k < int(blocks); k += blockDim.x) {
    b1 = op(b1, __ldcg(partial + k));
    b2 = op(b2, __ldcg(partial + blocks + k));
  }
  const double t1 = BlockReduce(tmp).Reduce(b1, op);
  __syncthreads();
  const double t2 = BlockReduce(tmp).Reduce(b2, op);
  if (threadIdx.x == 0) {
    *out1 = t1;
    *out2 = t2;
    *count = 0;
    then(0, 0);
  }
}

// The count of reduce_then_kernel, zero between launches (allocated once).
inline unsigned* reduce_count() {
  static unsigned* c = nullptr;
  if (!c) {
    cuda_check(cudaMalloc(&c, sizeof(unsigned)), "cudaMalloc(reduction count)");
    cuda_check(cudaMemset(c, 0, sizeof(unsigned)), "reduction count");
  }
  return c;
}

// Partial results and the final scalar live in one buffer, allocated once.
inline double* scratch() {
  static double* buf = nullptr;
  if (!buf) cuda_check(cudaMalloc(&buf, (kReduceBlocks + 1) * sizeof(double)), "cudaMalloc(scratch)");
  return buf;
}

template <class T>
struct FillFn {
  T* p;
  T v;
  __device__ void operator()(int i, int) const { p[i] = v; }
};

// Reduces f over the range into *out, in device memory: no host round trip.
template <class Op, class F>
void reduce_into(int i0, int i1, int j0, int j1, const F& f, double* out) {
  int width = i1 - i0 + 1, height = j1 - j0 + 1;
  double* buf = scratch();
  if (width <= 0 || height <= 0) {
    const double id = Op::identity;
    cuda_check(cudaMemcpyAsync(out, &id, sizeof(double), cudaMemcpyHostToDevice, launch_stream()), "reduction identity");
    return;
  }
  // About 4096 blocks of 256 threads: 8 per multiprocessor, 8 waves and more.
  const int bx = (width + kReduceThreads - 1) / kReduceThreads;  // <= 257 for 65536 columns
  const int by = std::max(1, std::min(height, std::min(4096, kReduceBlocks) / bx));
  launch(reduce_kernel<Op, F>, dim3(bx, by), dim3(kReduceThreads), "reduce_kernel launch", i0, i1, j0, j1, f, buf);
  launch(finish_kernel<Op>, dim3(1), dim3(kReduceThreads), "finish_kernel launch", buf, bx * by, out);
}

// reduce_into, then then(0, 0) on one thread, in one launch (reduce_then_kernel).
template <class Op, class F, class Then>
void reduce_into_then(int i0, int i1, int j0, int j1, const F& f, double* out, const Then& then) {
  const int width = i1 - i0 + 1, height = j1 - j0 + 1;
  if (width <= 0 || height <= 0) {
    reduce_into<Op>(i0, i1, j0, j1, f, out);
    launch(for_each_kernel<Then>, dim3(1), dim3(1), "kernel launch", 0, 0, 0, 0, then);
    return;
  }
  double* buf = scratch();
  unsigned* count = reduce_count();
  const int bx = (width + kReduceThreads - 1) / kReduceThreads;
  const int by = std::max(1, std::min(height, std::min(4096, kReduceBlocks) / bx));
  launch(reduce_then_kernel<Op, F, Then>, dim3(bx, by), dim3(kReduceThreads), "reduce_then_kernel launch", i0, i1, j0,
         j1, f, buf, count, out, then);
}

template <class F1, class F2, class Then>
void reduce_max2_into_then(int i0, int i1, int j0, int j1, const F1& f1, const F2& f2, double* out1, double* out2,
                           const Then& then) {
  const int width = i1 - i0 + 1, height = j1 - j0 + 1;
  if (width <= 0 || height <= 0) {
    reduce_into<MaxOp>(i0, i1, j0, j1, f1, out1);
    reduce_into_then<MaxOp>(i0, i1, j0, j1, f2, out2, then);
    return;
  }
  // The same blocks as reduce_into (<= 4096 of them: both halves fit the scratch).
  const int bx = (width + kReduceThreads - 1) / kReduceThreads;
  const int by = std::max(1, std::min(height, std::min(4096, kReduceBlocks) / bx));
  launch(reduce_max2_then_kernel<F1, F2, Then>, dim3(bx, by), dim3(kReduceThreads), "reduce_max2_then_kernel launch",
         i0, i1, j0, j1, f1, f2, scratch(), reduce_count(), out1, out2, then);
}

template <class Op, class F>
double reduce(int i0, int i1, int j0, int j1, const F& f) {
  double* out = scratch() + kReduceBlocks;
  reduce_into<Op>(i0, i1, j0, j1, f, out);
  double result;
  cuda_check(cudaMemcpy(&result, out, sizeof(double), cudaMemcpyDeviceToHost), "reduction result copy");
  return result;
}

}  // namespace cuda_detail

struct CudaExec {
  static constexpr const char* name = "cuda";

  template <class T>
  static T* alloc(std::size_t n) {
    T* p = nullptr;
    cuda_check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc");
    return p;
  }
  template <class T>
  static void release(T* p) { cudaFree(p); }
  // Page-locked host memory: copies to and from it run at the link's full speed
  // (the halo buffers of parallel/halo.hpp).
  template <class T>
  static T* alloc_host(std::size_t n) {
    T* p = nullptr;
    cuda_check(cudaMallocHost(&p, n * sizeof(T)), "cudaMallocHost");
    return p;
  }
  template <class T>
  static void release_host(T* p) { cudaFreeHost(p); }
  template <class T>
  static void upload(T* dst, const T* src, std::size_t n) {
    cuda_check(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  template <class T>
  static void download(T* dst, const T* src, std::size_t n) {
    cuda_check(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  }
  // Device to device, ordered with the kernels on the default stream.
  template <class T>
  static void copy(T* dst, const T* src, std::size_t n) {
    cuda_check(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToDevice, cuda_detail::launch_stream()), "device copy");
  }
  template <class T>
  static void fill(T* dst, T value, std::size_t n) {
    for_each(0, int(n) - 1, 0, 0, cuda_detail::FillFn<T>{dst, value});
  }

  template <class F>
  static void for_each(int i0, int i1, int j0, int j1, const F& f) {
    using namespace cuda_detail;
    int w = i1 - i0 + 1, h = j1 - j0 + 1;
    if (w <= 0 || h <= 0) return;
    dim3 block(kBlockX, kBlockY);
    dim3 grid((w + kBlockX - 1) / kBlockX, (h + kBlockY - 1) / kBlockY);
    launch(for_each_kernel<F>, grid, block, "kernel launch", i0, i1, j0, j1, f);
  }
  // f1 over its range, then f2 over its, in one launch of one block: for lines of cells
  // (a few thousand at most) that must be written in this order, where two launches
  // would cost more than the work (the projection model's side ghosts: two graph nodes
  // become one). The same writes in the same order as two for_each calls.
  template <class F1, class F2>
  static void for_each_in_turn(int i0, int i1, int j0, int j1, const F1& f1, int k0, int k1, int l0, int l1,
                               const F2& f2) {
    using namespace cuda_detail;
    if (i1 < i0 || j1 < j0) {
      for_each(k0, k1, l0, l1, f2);
      return;
    }
    if (k1 < k0 || l1 < l0) {
      for_each(i0, i1, j0, j1, f1);
      return;
    }
    launch(in_turn_kernel<F1, F2>, dim3(1), dim3(kInTurnThreads), "kernel launch", i0, i1, j0, j1, f1, k0, k1, l0, l1,
           f2);
  }
  // for_each with at least kMinBlocks blocks resident per multiprocessor (see
  // for_each_bounded_kernel); the CPU backend ignores the budget.
  template <int kMinBlocks, class F>
  static void for_each_bounded(int i0, int i1, int j0, int j1, const F& f) {
    using namespace cuda_detail;
    int w = i1 - i0 + 1, h = j1 - j0 + 1;
    if (w <= 0 || h <= 0) return;
    dim3 block(kBlockX, kBlockY);
    dim3 grid((w + kBlockX - 1) / kBlockX, (h + kBlockY - 1) / kBlockY);
    launch(for_each_bounded_kernel<kMinBlocks, F>, grid, block, "kernel launch", i0, i1, j0, j1, f);
  }

  template <class F>
  static double reduce_max(int i0, int i1, int j0, int j1, const F& f) {
    return cuda_detail::reduce<cuda_detail::MaxOp>(i0, i1, j0, j1, f);
  }
  template <class F>
  static double reduce_sum(int i0, int i1, int j0, int j1, const F& f) {
    return cuda_detail::reduce<cuda_detail::SumOp>(i0, i1, j0, j1, f);
  }
  // The same, leaving the result in backend memory (*out) for a later kernel or a
  // later read_scalars: no host round trip.
  template <class F>
  static void reduce_max_into(int i0, int i1, int j0, int j1, const F& f, double* out) {
    cuda_detail::reduce_into<cuda_detail::MaxOp>(i0, i1, j0, j1, f, out);
  }
  template <class F>
  static void reduce_sum_into(int i0, int i1, int j0, int j1, const F& f, double* out) {
    cuda_detail::reduce_into<cuda_detail::SumOp>(i0, i1, j0, j1, f, out);
  }
  // Two maxima over the same range in one pass, then then(0, 0): the values of two
  // reduce_max_into calls.
  template <class F1, class F2, class Then>
  static void reduce_max2_into_then(int i0, int i1, int j0, int j1, const F1& f1, const F2& f2, double* out1,
                                    double* out2, const Then& then) {
    cuda_detail::reduce_max2_into_then(i0, i1, j0, j1, f1, f2, out1, out2, then);
  }
  // f where gate.open() (backend/launch.hpp): every thread reads the gate.
  template <class G, class F>
  static void for_each_gated(const G& gate, int i0, int i1, int j0, int j1, const F& f) {
    for_each(i0, i1, j0, j1, GatedPoint<G, F>{gate, f});
  }
  // The same, then then(0, 0) on one thread once *out is written: one launch (the
  // same bits as the reduction alone).
  template <class F, class Then>
  static void reduce_max_into_then(int i0, int i1, int j0, int j1, const F& f, double* out, const Then& then) {
    cuda_detail::reduce_into_then<cuda_detail::MaxOp>(i0, i1, j0, j1, f, out, then);
  }
  template <class F, class Then>
  static void reduce_sum_into_then(int i0, int i1, int j0, int j1, const F& f, double* out, const Then& then) {
    cuda_detail::reduce_into_then<cuda_detail::SumOp>(i0, i1, j0, j1, f, out, then);
  }
  // Batches: fs and outs in device memory (backend/batch_launch.hpp uploads them);
  // one launch for all n members, the member in grid z.
  template <class F>
  static void for_each_batch(int i0, int i1, int j0, int j1, const F* fs, int n) {
    using namespace cuda_detail;
    int w = i1 - i0 + 1, h = j1 - j0 + 1;
    if (w <= 0 || h <= 0 || n <= 0) return;
    dim3 block(kBlockX, kBlockY);
    for (int z0 = 0; z0 < n; z0 += 65535) {
      dim3 grid((w + kBlockX - 1) / kBlockX, (h + kBlockY - 1) / kBlockY, std::min(n - z0, 65535));
      for_each_batch_kernel<<<grid, block, 0, launch_stream()>>>(i0, i1, j0, j1, fs + z0);
      cuda_check(cudaGetLastError(), "batch kernel launch");
    }
  }
  template <class F>
  static void reduce_max_batch_into(int i0, int i1, int j0, int j1, const F* fs, double* const* outs, int n) {
    cuda_detail::reduce_batch_into<cuda_detail::MaxOp>(i0, i1, j0, j1, fs, outs, n);
  }
  template <class F>
  static void reduce_sum_batch_into(int i0, int i1, int j0, int j1, const F* fs, double* const* outs, int n) {
    cuda_detail::reduce_batch_into<cuda_detail::SumOp>(i0, i1, j0, j1, fs, outs, n);
  }

  // The 3D loops: one block layer per k (grid z), threads over i and j.
  template <class F>
  static void for_each3(int i0, int i1, int j0, int j1, int k0, int k1, const F& f) {
    using namespace cuda_detail;
    int w = i1 - i0 + 1, h = j1 - j0 + 1, d = k1 - k0 + 1;
    if (w <= 0 || h <= 0 || d <= 0) return;
    dim3 block(kBlockX, kBlockY);
    // At most 65535 layers a launch (the grid's z limit): deeper boxes take several.
    for (int kb = k0; kb <= k1; kb += 65535) {
      const int ke = k1 - kb < 65535 ? k1 : kb + 65534;
      dim3 grid((w + kBlockX - 1) / kBlockX, (h + kBlockY - 1) / kBlockY, ke - kb + 1);
      launch(for_each3_kernel<F>, grid, block, "kernel launch", i0, i1, j0, j1, kb, ke, f);
    }
  }
  template <class F>
  static double reduce_sum3(int i0, int i1, int j0, int j1, int k0, int k1, const F& f) {
    const int ny = j1 - j0 + 1, rows = ny * (k1 - k0 + 1);
    if (ny <= 0 || rows <= 0) return 0.0;
    return reduce_sum(i0, i1, 0, rows - 1, cuda_detail::Rows3<F>{f, j0, ny, k0});
  }
  template <class F>
  static double reduce_max3(int i0, int i1, int j0, int j1, int k0, int k1, const F& f) {
    const int ny = j1 - j0 + 1, rows = ny * (k1 - k0 + 1);
    if (ny <= 0 || rows <= 0) return -INFINITY;
    return reduce_max(i0, i1, 0, rows - 1, cuda_detail::Rows3<F>{f, j0, ny, k0});
  }
  template <class F>
  static void reduce_sum3_into(int i0, int i1, int j0, int j1, int k0, int k1, const F& f, double* out) {
    const int ny = j1 - j0 + 1, rows = ny * (k1 - k0 + 1);
    reduce_sum_into(i0, i1, 0, rows - 1, cuda_detail::Rows3<F>{f, j0, ny, k0}, out);
  }
  template <class F>
  static void reduce_max3_into(int i0, int i1, int j0, int j1, int k0, int k1, const F& f, double* out) {
    const int ny = j1 - j0 + 1, rows = ny * (k1 - k0 + 1);
    reduce_max_into(i0, i1, 0, rows - 1, cuda_detail::Rows3<F>{f, j0, ny, k0}, out);
  }

  // Copies n scalars from backend memory to the host: one round trip for all.
  static void read_scalars(double* host, const double* dev, int n) {
    cuda_check(cudaMemcpy(host, dev, n * sizeof(double), cudaMemcpyDeviceToHost), "scalar copy");
  }

  // The first n of every `stride` scalars, `rows` times (host laid out as dev): one
  // strided copy.
  static void read_scalar_rows(double* host, const double* dev, int n, int stride, int rows) {
    const std::size_t pitch = std::size_t(stride) * sizeof(double);
    cuda_check(cudaMemcpy2D(host, pitch, dev, pitch, n * sizeof(double), rows, cudaMemcpyDeviceToHost),
               "scalar rows copy");
  }

  static void synchronize() { cuda_check(cudaDeviceSynchronize(), "synchronize"); }

  // Device time between start() and stop_ms(), measured with CUDA events on the
  // default stream (stop_ms waits for the second event).
  class Timer {
   public:
    Timer() {
      cuda_check(cudaEventCreate(&a_), "cudaEventCreate");
      cuda_check(cudaEventCreate(&b_), "cudaEventCreate");
    }
    ~Timer() { cudaEventDestroy(a_); cudaEventDestroy(b_); }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    void start() { cuda_check(cudaEventRecord(a_), "cudaEventRecord"); }
    double stop_ms() {
      cuda_check(cudaEventRecord(b_), "cudaEventRecord");
      cuda_check(cudaEventSynchronize(b_), "cudaEventSynchronize");
      float ms = 0;
      cuda_check(cudaEventElapsedTime(&ms, a_, b_), "cudaEventElapsedTime");
      return ms;
    }

   private:
    cudaEvent_t a_{}, b_{};
  };
};

}  // namespace flowlua
