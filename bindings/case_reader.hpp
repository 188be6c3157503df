// flow.simulation{...} -> a CaseSpec: the shared part of the case (model, grid, time,
// precision, backend, output) read here, the rest by the model's own reader.
//
// Each model has one reader in bindings/ (projection_reader.cpp, psi_omega_reader.cpp,
// ...) that registers itself with a ModelRegistration: its name, the top-level keys it
// reads, and a function that reads them into a ModelCase (its config). Adding a model
// adds that file and its engine folder, and touches nothing else.
#pragma once
#include <lua.hpp>

#include <array>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "lua_boundary.hpp"
#include "sim/solver.hpp"

namespace flowlua::lua {

// Lua values kept alive for a simulation: the table at `table` (an absolute stack
// index) holds them in integer slots 1, 2, ...
struct FnStore {
  lua_State* L = nullptr;
  int table = 0;
  int next = 1;
  int store(int idx);           // copies the value at idx into a new slot
  void push(int slot) const;    // pushes the value of a slot
};

// A side whose values come from Lua functions, re-evaluated while the simulation runs.
struct DynamicSide {
  Side side = Side::Left;
  BoundarySpec spec;
  int slot_a = 0;  // u function (inflow) or the custom function
  int slot_b = 0;  // v function (inflow)
  int slot_T = 0;  // T function (flow.dirichlet / flow.neumann with a function)
  int slot_w = 0;  // w function (inflow on a 3D side)
  bool three_d = false;   // a side of a 3D box: evaluate_side3
  bool at_nodes = false;  // psi_omega: values at the grid nodes
};

struct ObstacleInfo {
  std::string description;  // "circle at (0.5, 0.5) r = 0.1"
  long cells = 0;           // cells it covers on its own
  const char* unit = "cells";  // what `cells` counts ("nodes": psi_omega rasterises at the grid nodes)
  int slot = 0;             // the Lua value (shape or function), for sim:forces(obstacle)
};

struct CaseSpec;
class TableReader;

// checkpoint = { every = N | every_time = T, keep = 2, file = "checkpoint_%06d.h5" }
struct CheckpointSpec {
  bool enabled = false;
  long every_steps = 0;    // after every step whose number is a multiple of this
  double every_time = 0;   // after the step passing each multiple of this simulated time
  int keep = 2;            // the newest this many files written by the key stay; older ones go
  std::string file = "checkpoint_%06d.h5";  // %d: the step; relative to the output folder
};

// What a model's reader made of a case: the model's own config, and the few things
// the host asks of a model without knowing it.
class ModelCase {
 public:
  virtual ~ModelCase() = default;
  // Builds the solver from the model's config with `common` as its shared part (the
  // case's, with the command line's --backend and --precision applied).
  virtual std::unique_ptr<Solver> build(const CaseCommon& common) const = 0;
  // The case as --explain prints it (summary_head() and summary_time() give the
  // shared lines).
  virtual std::string summary(const CaseSpec& spec) const = 0;
  // Constants of the model a script may read off a simulation (sim.nu, sim.rho).
  virtual std::optional<double> constant(const std::string& name) const = 0;
  virtual std::vector<std::string> constant_names() const = 0;
};

struct CaseSpec {
  std::string model;                     // "projection", "psi_omega", ...
  CaseCommon common;                     // grid, time, precision, backend, forced kernels
  std::shared_ptr<const ModelCase> model_case;
  // Host-side state the run needs, whatever the model: boundary functions to
  // re-evaluate, obstacles (for sim:forces), the sides as text for the summary.
  std::vector<DynamicSide> dynamic;
  std::vector<ObstacleInfo> obstacles;
  std::array<std::string, 6> side_text;  // "wall (no slip)", ... (6: the sides of a 3D box)
  std::string output;                    // the simulation's own output folder ("" = global)
  CheckpointSpec checkpoint;             // the checkpoint key (also where SIGINT writes)
  // Stop conditions (the run loop's): t_end is infinite when not given.
  double t_end = std::numeric_limits<double>::infinity();
  long max_steps = -1;
  double steady = 0;
  double steady_interval = 0;  // 0: the default (sim/steady.hpp)

  std::string summary() const { return model_case->summary(*this); }
  std::unique_ptr<Solver> build() const { return model_case->build(common); }
};

// A model's reader, registered from its own file:
//   static const ModelRegistration registration{{"psi_omega", {"fluid", ...}, read_psi_omega}};
struct ModelReader {
  std::string name;
  std::vector<std::string> keys;  // top-level keys of flow.simulation it reads (besides the shared ones)
  // Reads those keys from `top` into the model's config; spec.common.grid is read by
  // then, and spec.common.time after (so the reader must not depend on it).
  std::shared_ptr<const ModelCase> (*read)(const TableReader& top, CaseSpec& spec, FnStore& store);
  // Whether the model reads 3D grids (grid.nz > 1, spec.common.dims = 3); the 2D
  // models leave it false and read_case rejects a 3D grid for them.
  bool three_d = false;
  // Whether the model steps on several MPI ranks (docs/mpi.md); the others refuse
  // to run under mpirun -np N > 1.
  bool several_ranks = false;
};
struct ModelRegistration {
  explicit ModelRegistration(ModelReader reader);
};
const std::vector<ModelReader>& model_readers();

// Reads and checks the table at idx. Functions (boundary profiles, obstacle shapes)
// are kept in `store`. Throws CaseError with the key path and what is allowed.
CaseSpec read_case(lua_State* L, int idx, FnStore& store);

// grid = { nx, ny [, nz], lx, ly [, lz] } into spec.common (grid, and dims and grid3
// when nz > 1); read_case calls it before the model's reader.
void read_grid(const TableReader& top, CaseSpec& spec);

// The shared lines of a case summary: "case: model ..." and the grid; the time line.
std::string summary_head(const CaseSpec& spec);
std::string summary_time(const CaseSpec& spec);
// "  kernels forced: ..." (empty when none is).
std::string summary_kernels(const CaseSpec& spec);

// Reads the forced kernel variants of `stages` and `general` from a kernels table.
void read_forced_kernels(const TableReader& kernels, std::initializer_list<const char*> stages, CaseSpec& c);

// Largest grid: nx, ny (and nz) <= 65536 and nx * ny (* nz) <= 2^31.
inline constexpr long long kMaxCellsPerSide = 65536;
inline constexpr long long kMaxCells = 1LL << 31;

}  // namespace flowlua::lua
