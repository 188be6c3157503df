// Everything a solver needs to continue a run exactly: its arrays as they are in backend
// memory (ghost cells, scratch and history included) and its scalars (step, time, dt,
// caps, the last solve). A checkpoint (io/checkpoint.hpp) writes it to a file; restoring
// it and stepping on gives the fields of the run that was never interrupted, bit for bit
// on the same backend and precision.
#pragma once
#include <string>
#include <vector>

#include "backend/device_array.hpp"
#include "core/error.hpp"

namespace flowlua {

struct SolverState {
  // On several MPI ranks a checkpoint holds each rank's block (io/checkpoint_pieces.hpp,
  // Solver::save_block_state); how a block's array sits in the whole grid's
  // (parallel/gather.hpp names the two layouts):
  //   None    not a grid array: the same on every rank (side values, a list)
  //   Planes  planes of the block's cells and halo, nxa x nya each, of planes
  //           of the whole grid's nx x ny cells (the "Halo layout": lbm_swe)
  //   Ring    the block's (nx + 2) x (ny + 2) with its ghost ring, of the whole
  //           grid's (nx + 2) x (ny + 2) (the "Ghosts layout": projection)
  enum class Tile { None, Planes, Ring };
  struct Array {
    std::string name;
    bool single = false;         // stored in float (the solver's precision)
    std::vector<double> values;  // float values widen to double exactly
    // For readers of the file (h5dump, h5py): rows x cols when the array is a grid
    // (0 x 0: a plain list), and what its entries are.
    std::size_t rows = 0, cols = 0;
    std::string layout;
    Tile tile = Tile::None;  // above
  };
  std::vector<Array> arrays;
  std::vector<std::pair<std::string, double>> scalars;

  const Array& array(const std::string& name) const {
    for (const auto& a : arrays)
      if (a.name == name) return a;
    throw CaseError("the checkpoint has no array '" + name + "'");
  }
  double scalar(const std::string& name) const {
    for (const auto& [n, v] : scalars)
      if (n == name) return v;
    throw CaseError("the checkpoint has no value '" + name + "'");
  }
};

// Saves and restores one backend array under `name` (a grid of rows x cols when given).
template <class Exec, class Real>
void save_array(SolverState& s, const std::string& name, const DeviceArray<Exec, Real>& a, std::size_t rows = 0,
                std::size_t cols = 0, const std::string& layout = "") {
  const std::vector<Real> host = a.download();
  SolverState::Array out;
  out.name = name;
  out.single = sizeof(Real) == sizeof(float);
  out.values.assign(host.begin(), host.end());
  if (rows * cols == out.values.size() && rows > 0) {
    out.rows = rows;
    out.cols = cols;
  }
  out.layout = layout;
  s.arrays.push_back(std::move(out));
}

template <class Exec, class Real>
void restore_array(const SolverState& s, const std::string& name, DeviceArray<Exec, Real>& a) {
  const SolverState::Array& in = s.array(name);
  if (in.values.size() != a.size())
    throw CaseError("the checkpoint's array '" + name + "' has " + std::to_string(in.values.size()) +
                    " values where this simulation has " + std::to_string(a.size()));
  a.upload(std::vector<Real>(in.values.begin(), in.values.end()));
}

}  // namespace flowlua
