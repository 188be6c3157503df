// The interface every model offers to the host: step, read and write fields,
// report diagnostics and forces, explain its kernel plan. One instance runs on one
// backend in one precision; make_solver picks the instantiation.
#pragma once
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/boundary.hpp"
#include "core/config.hpp"
#include "core/snapshot.hpp"
#include "core/snapshot3.hpp"
#include "parallel/decomposition.hpp"
#include "sim/batch_stepper.hpp"
#include "sim/solver_state.hpp"
#include "sim/steady.hpp"

namespace flowlua {

// What a model reports about its state: the step, the time and dt, then named values
// in the model's own order (kinetic energy, solver iterations, wall temperature
// gradients, ...). sim:diagnostics() turns them into a table; each model's section of
// docs/case-language.md lists its names.
struct Diagnostics {
  struct Value {
    std::string name;
    double value = 0;
    bool integer = false;  // a count (iterations): Lua sees an integer
  };
  long step = 0;
  double time = 0, dt = 0;
  std::vector<Value> values;

  void add(std::string name, double value, bool integer = false) {
    values.push_back({std::move(name), value, integer});
  }
  // The value called `name`; NaN when the model does not report it.
  double get(const std::string& name) const {
    for (const auto& v : values)
      if (v.name == name) return v.value;
    return std::numeric_limits<double>::quiet_NaN();
  }
};

struct Forces {
  double fx = 0, fy = 0;  // force on the obstacle per unit depth: drag (x), lift (y)
  // The pressure part (-integral of p n over the surface) and the rest (viscous);
  // the moment (counter-clockwise, per unit depth) about (x_ref, y_ref).
  double fx_pressure = 0, fy_pressure = 0, fx_viscous = 0, fy_viscous = 0;
  double moment = 0, x_ref = 0, y_ref = 0;
  const char* method = "";  // how the total was taken: "control volume" or "faces"
};

class Solver {
 public:
  virtual ~Solver() = default;

  virtual void step() = 0;  // one time step; throws BlowUp when a value is not finite
  virtual long steps() const = 0;
  virtual double time() const = 0;
  virtual double dt() const = 0;  // of the last step (or the next one, before the first)
  // Caps the next step's dt (e.g. to land exactly on t_end); <= 0 removes the cap.
  virtual void limit_next_dt(double max_dt) = 0;
  // A model that keeps dt and the time in backend memory (the projection model's
  // kernels.dt = "device") reads them back only when asked: time() and dt() may wait
  // for the steps in flight. time_upper_bound() is a bound time() <= it that needs no
  // read (the last time read plus the longest dt the steps since can have taken); the
  // run loop decides most steps on it. The default is time() itself.
  virtual double time_upper_bound() const { return time(); }
  // Caps the coming step so that a run lands on t_end (infinity: no cap). The default
  // is limit_next_dt(t_end - time()); a model that keeps its time in backend memory
  // caps there, without reading the time.
  virtual void limit_end_time(double t_end) { limit_next_dt(std::isfinite(t_end) ? t_end - time() : 0); }
  // The steady-state test (sim/steady.hpp): the velocity (and a transported
  // temperature) copied to the host into `out`'s reused vectors, with their scales.
  virtual void steady_sample(SteadySample& out) = 0;
  // The relative tolerance of the model's Poisson solve (0: none), against which the
  // steady test checks that its target can be reached.
  virtual double poisson_tolerance() const { return 0; }
  // The default span of the steady test in steps (time.steady_interval not given):
  // 0 keeps the run loop's (SteadyMonitor::kDefaultSteps). A model whose steps are
  // long in time (implicit, pseudo-time) compares over fewer of them.
  virtual double steady_interval_steps() const { return 0; }
  // The shared part of the case the solver was built from (grid, time, precision,
  // backend); each model keeps its own config beside it.
  virtual const CaseCommon& common() const = 0;

  // New boundary values for a side (same kind as before): inflow profiles and
  // callbacks that depend on time. Uploaded before the next step.
  virtual void set_side(Side side, const SideCondition& condition) = 0;

  virtual std::vector<std::string> field_names() const = 0;
  // The fields output writers take when a case names none (flow.vtk): every field
  // once, aliases left out.
  virtual std::vector<std::string> output_field_names() const { return field_names(); }
  virtual FieldSnapshot field(const std::string& name) = 0;  // CaseError for unknown names
  virtual void set_field(const FieldSnapshot& snapshot) = 0;  // writable fields only

  // 3D models: dims() is 3 and fields are 3D snapshots (field3; field() may then
  // throw). The 2D models keep the defaults.
  virtual int dims() const { return 2; }
  virtual FieldSnapshot3 field3(const std::string& name) {
    throw CaseError("field '" + name + "': this model is 2D; its fields are 2D snapshots");
  }
  virtual void set_field3(const FieldSnapshot3&) { throw CaseError("this model is 2D; it has no 3D fields"); }

  virtual Diagnostics diagnostics() = 0;
  virtual Forces forces(int obstacle) = 0;
  virtual std::string plan() const = 0;  // the kernel plan, for --explain

  // Checkpoint and restart (sim/solver_state.hpp): the state to continue from, and
  // continuing from one. A model that cannot yet says so (CaseError).
  virtual SolverState save_state() {
    throw CaseError("this model cannot write checkpoints yet");
  }
  virtual void restore_state(const SolverState&) {
    throw CaseError("this model cannot restart from checkpoints yet");
  }
  // The same for this rank's block only, as the block holds it (halo included), each
  // grid array tagged with its SolverState::Array::Tile: what a rank writes to its
  // piece of a checkpoint on several MPI ranks (io/checkpoint_pieces.hpp), without
  // gathering the grid. restore_block_state takes such a state for this rank's block
  // (read from its piece, or assembled from the pieces of another split). Models that
  // step on one rank only keep the defaults.
  virtual SolverState save_block_state() {
    throw CaseError("this model cannot write checkpoints on several ranks");
  }
  virtual void restore_block_state(const SolverState&) {
    throw CaseError("this model cannot restart from a checkpoint of several ranks");
  }
  virtual std::string backend_name() const = 0;

  // Several MPI ranks (docs/mpi.md): the block of the grid this rank steps, of the
  // split of the whole grid between the ranks. Models that step on one rank only keep
  // the default, the whole grid.
  virtual ranks::Subdomain rank_block() const { return ranks::whole_grid(common().grid.nx, common().grid.ny); }

  // flow.batch (sim/batch.hpp): solvers with the same non-empty key can step together;
  // the key says what must agree (model, backend, precision, grid, kernel plan), in
  // words for messages. A model without batched steps keeps the defaults (its members
  // step in turn). make_batch_stepper is called on the first member with all of them.
  virtual std::string batch_key() const { return ""; }
  virtual std::unique_ptr<BatchStepper> make_batch_stepper(const std::vector<Solver*>&, bool /*shared_dt*/) {
    return nullptr;
  }
};

// Whether this build has CUDA and a device answers; `why` says what is missing.
bool cuda_available(std::string* why = nullptr);
// The device's free memory in bytes; false without CUDA or a device.
bool cuda_free_memory(std::size_t* free_bytes);
// Makes GPU (k mod the number of GPUs) this process's device: one GPU per MPI rank of
// a node, chosen by its local rank. Nothing without CUDA or without a GPU.
void use_cuda_device(int k);

}  // namespace flowlua
