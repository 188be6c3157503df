// Checkpoint files: a solver's state (sim/solver_state.hpp) with what is needed to
// trust it on restart, in HDF5 (readable by h5dump and h5py):
//
//   /                attributes format = "flowlua checkpoint", format_version, flowlua_version,
//                    model, precision, backend, case_hash, case_file, simulation, step, time
//   /params          one string attribute per --set value the case ran with
//   /scalars         one double attribute per solver scalar (step, time, dt, ...)
//   /arrays/<name>   one dataset per solver array, in the solver's precision
//
// The file is built in memory and written under a temporary name, then renamed
// (io/files.hpp), so a crash never leaves half a checkpoint. That is format_version 1,
// written by one rank. On several MPI ranks a checkpoint is a manifest (format_version
// 2) naming one piece a rank (io/checkpoint_pieces.hpp); read_checkpoint reads either.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/solver_state.hpp"

namespace flowlua::io {

struct CheckpointManifest;  // io/checkpoint_pieces.hpp

struct Checkpoint {
  std::string model, precision, backend;
  std::string case_hash;   // fingerprint of the case (bindings: what must not change)
  std::string case_file;   // the case script, for messages
  std::string flowlua_version;
  int simulation = 1;      // which simulation of the script (1-based, in build order)
  long step = 0;
  double time = 0;
  std::vector<std::pair<std::string, std::string>> params;  // --set name=value
  SolverState state;      // empty when `pieces` is set: the pieces hold it
  // A checkpoint of several ranks: its manifest (io/checkpoint_pieces.hpp); the state
  // is read from the pieces when a solver restores it. Null: one file, `state`.
  std::shared_ptr<const CheckpointManifest> pieces;
};

// Writes `c` to `path` atomically (parents must exist); std::runtime_error on failure.
void write_checkpoint(const std::string& path, const Checkpoint& c);
// Reads a checkpoint (of several ranks: its manifest, after checking that every piece
// is there with its size); std::runtime_error naming the file and what is wrong.
Checkpoint read_checkpoint(const std::string& path);

// Whether this build can write and read checkpoints (HDF5 found at build time).
bool checkpoints_available();

}  // namespace flowlua::io
