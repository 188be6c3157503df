// CUDA graphs of the step (issue 12): what a model launches for one step, recorded
// once by stream capture and replayed with one launch, and the conditional while node
// of loops the device decides (GraphLoop, backend/step_graph.hpp).
//
// Capture: the backend's launches and asynchronous copies go to
// cuda_detail::launch_stream(), which is switched to a capturing stream; it is a
// blocking stream, so anything queued on the legacy stream meanwhile (a synchronous
// copy back to the host, a library's launch) would wait for it: CUDA refuses that
// during a capture and the capture fails, which is how a step that needs the host is
// found. A failed capture runs nothing and leaves the caller to launch the step
// directly. Allocations are refused too: a step is captured only after it ran once.
#pragma once
#include <cuda_runtime.h>

#include <exception>
#include <string>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/step_graph.hpp"

namespace flowlua {

namespace cuda_detail {

// The condition of a while node from the flag the body's last launch left (static:
// each translation unit that records loops has its own, as it must without
// separate compilation).
static __global__ void set_condition_kernel(cudaGraphConditionalHandle handle, const double* flag) {
  cudaGraphSetConditional(handle, *flag != 0 ? 1u : 0u);
}

// The capturing stream of every StepGraph, and a second one for the bodies of
// conditional nodes: blocking (see above), made once per process. One each, not one
// per solver: the legacy stream synchronizes implicitly with every blocking stream,
// so a stream per solver (a batch of 256 has 256 solvers) would slow every launch.
inline cudaStream_t capture_stream() {
  static cudaStream_t s = [] {
    cudaStream_t t = nullptr;
    cuda_check(cudaStreamCreate(&t), "cudaStreamCreate(capture)");
    return t;
  }();
  return s;
}
inline cudaStream_t body_stream() {
  static cudaStream_t s = [] {
    cudaStream_t t = nullptr;
    cuda_check(cudaStreamCreate(&t), "cudaStreamCreate(graph body)");
    return t;
  }();
  return s;
}

}  // namespace cuda_detail

template <>
class StepGraph<CudaExec> {
 public:
  StepGraph() = default;
  StepGraph(const StepGraph&) = delete;
  StepGraph& operator=(const StepGraph&) = delete;
  ~StepGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  bool ready() const { return exec_ != nullptr; }
  bool failed() const { return failed_; }
  const std::string& why() const { return why_; }

  // Records what enqueue() launches. True: the graph is ready. False: nothing ran,
  // nothing is recorded, failed() and why() say what CUDA refused (enqueue may throw
  // for a refused call; the exception is caught here).
  // programmatic: the kernels' edges programmatic where they can be (on devices of
  // compute capability 9.0+; cuda_exec.cuh, programmatic_edge).
  template <class F>
  bool capture(F&& enqueue, bool programmatic = false) {
    if (exec_ || failed_) return exec_ != nullptr;
    const bool pdl = programmatic && cuda_detail::programmatic_launch_supported();
    cudaStream_t stream = cuda_detail::capture_stream();
    cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) return fail(std::string("cudaStreamBeginCapture: ") + cudaGetErrorString(e));
    cudaStream_t& ls = cuda_detail::launch_stream();
    const cudaStream_t outer = ls;
    ls = stream;
    cuda_detail::ProgrammaticCapture& pc = cuda_detail::programmatic_capture();
    pc = cuda_detail::ProgrammaticCapture{pdl, 0};
    std::string err;
    try {
      enqueue();
    } catch (const std::exception& x) {
      err = x.what();
    }
    ls = outer;
    const long edges = pc.edges;
    pc = cuda_detail::ProgrammaticCapture{};
    cudaGraph_t g = nullptr;
    e = cudaStreamEndCapture(stream, &g);
    if (err.empty() && (e != cudaSuccess || !g)) err = std::string("cudaStreamEndCapture: ") + cudaGetErrorString(e);
    if (err.empty()) {
      e = cudaGraphInstantiate(&exec_, g, 0);
      if (e != cudaSuccess) {
        exec_ = nullptr;
        err = std::string("cudaGraphInstantiate: ") + cudaGetErrorString(e);
      }
    }
    if (g) cudaGraphDestroy(g);
    if (!err.empty()) return fail(err);
    edges_ = edges;
    return true;
  }
  // The programmatic edges of the recording (0 without `programmatic`).
  long programmatic_edges() const { return edges_; }
  // One replay, on the launch stream (the legacy stream: ordered with everything else).
  void launch() { cuda_check(cudaGraphLaunch(exec_, cuda_detail::launch_stream()), "cudaGraphLaunch"); }

 private:
  bool fail(const std::string& why) {
    (void)cudaGetLastError();  // a refused call during a capture leaves no sticky error
    failed_ = true;
    why_ = why;
    return false;
  }

  cudaGraphExec_t exec_ = nullptr;
  long edges_ = 0;
  bool failed_ = false;
  std::string why_;
};

template <>
struct GraphLoop<CudaExec> {
  static bool capturing() {
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    cudaStream_t s = cuda_detail::launch_stream();
    if (!s) return false;  // the legacy stream never captures
    cuda_check(cudaStreamIsCapturing(s, &st), "cudaStreamIsCapturing");
    return st == cudaStreamCaptureStatusActive;
  }
  // Inside a capture: a conditional while node after what was captured so far, its
  // body captured from body() on a second stream, then a kernel that sets the
  // condition from *flag. The condition starts at 1 on every launch of the graph, so
  // the body runs at least once.
  template <class Body>
  static void run_while(Body&& body, const double* flag) {
    using namespace cuda_detail;
    cudaStream_t s = launch_stream();
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    cudaGraph_t graph = nullptr;
    const cudaGraphNode_t* deps = nullptr;
    const cudaGraphEdgeData* edges = nullptr;
    std::size_t ndeps = 0;
    cuda_check(cudaStreamGetCaptureInfo(s, &st, nullptr, &graph, &deps, &edges, &ndeps), "cudaStreamGetCaptureInfo");
    cudaGraphConditionalHandle handle;
    cuda_check(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault),
               "cudaGraphConditionalHandleCreate");
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = handle;
    params.conditional.type = cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t node;
    cuda_check(cudaGraphAddNode(&node, graph, deps, edges, ndeps, &params), "cudaGraphAddNode(while)");
    cuda_check(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1, cudaStreamSetCaptureDependencies),
               "cudaStreamUpdateCaptureDependencies");
    cudaGraph_t inner = params.conditional.phGraph_out[0];
    cudaStream_t b = body_stream();
    // Relaxed, as CUDA's conditional-node samples capture bodies: the outer capture's
    // thread-local mode already refuses unsafe calls from this thread.
    cuda_check(cudaStreamBeginCaptureToGraph(b, inner, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed),
               "cudaStreamBeginCaptureToGraph(while body)");
    // The body's launches go to the body stream; whatever happens, its capture ends
    // and the launch stream is given back.
    // The body's kernels keep ordinary edges: programmatic ones are not known to be
    // allowed in a conditional node's body (the nodes after the while node have
    // ordinary edges too: their predecessor is no kernel).
    struct Restore {
      cudaStream_t outer, body;
      bool programmatic;
      ~Restore() {
        launch_stream() = outer;
        programmatic_capture().on = programmatic;
        cudaStreamCaptureStatus bs = cudaStreamCaptureStatusNone;
        if (cudaStreamIsCapturing(body, &bs) == cudaSuccess && bs != cudaStreamCaptureStatusNone) {
          cudaGraph_t g = nullptr;
          cudaStreamEndCapture(body, &g);  // into the node's body graph (owned by the node)
        }
      }
    } restore{s, b, programmatic_capture().on};
    launch_stream() = b;
    programmatic_capture().on = false;
    body();
    set_condition_kernel<<<1, 1, 0, b>>>(handle, flag);
    cuda_check(cudaGetLastError(), "set_condition_kernel launch");
  }
};

}  // namespace flowlua
