// Checkpoints of several MPI ranks (docs/mpi.md, "Checkpoints"): each rank writes its
// block's state (Solver::save_block_state) to a file of its own, a piece, and rank 0
// writes the manifest that names them at the checkpoint's path. No rank gathers the
// grid. Both are HDF5 files of format_version 2 (io/checkpoint.hpp has version 1):
//
//   <path>                         the manifest: the header of a one-file checkpoint
//                                  (model, precision, case hash, --set values, step,
//                                  time) and /pieces: the grid (nx, ny), the split
//                                  (ranks, px, py, periodic_x, periodic_y), the
//                                  generation, and a group rank_<r> per rank: its
//                                  file, block (i0, j0, nx, ny), the file's size in
//                                  bytes and FNV-1a checksum
//   <path>.pieces/<gen>_r<r>.h5    rank r's piece: the header, piece_rank, piece_ranks,
//                                  generation, the block, /scalars and /arrays of its
//                                  block (each grid array's "tile" attribute)
//
// The commit: every rank writes its piece under a temporary name; the ranks agree
// that all did (else all stop, and nothing names the new pieces); each renames its
// own; rank 0 writes the manifest (temporary name, rename) last, then removes the
// pieces of earlier generations of the same path. A piece's name carries the
// generation (a random number drawn by rank 0 for this write), so rewriting a
// checkpoint never touches the pieces the old manifest names: a crash at any moment
// leaves the old or the new manifest, each with all its own pieces.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/checkpoint.hpp"
#include "parallel/decomposition.hpp"

namespace flowlua::io {

struct CheckpointManifest {
  std::string path;            // the manifest's own path
  int nx = 0, ny = 0;          // the whole grid
  ranks::Decomposition split;  // the ranks that wrote it: piece r is block r of it
  std::string generation;
  long step = 0;
  struct Piece {
    std::string file;          // the path (the manifest's folder joined to its name)
    int i0 = 0, j0 = 0, nx = 0, ny = 0;
    std::uint64_t bytes = 0, checksum = 0;
  };
  std::vector<Piece> pieces;
};

// FNV-1a (64 bit) of a file's bytes, the pieces' checksum.
std::uint64_t fnv1a64(const std::string& bytes);

// Collective: the checkpoint `c` (its header, and this rank's block state from
// Solver::save_block_state) written at `path` as pieces and manifest. Throws
// std::runtime_error on every rank when any rank fails; the previous checkpoint at
// `path`, if any, is then left whole.
void write_checkpoint_pieces(const std::string& path, const Checkpoint& c, const ranks::Subdomain& block);

// Collective: the state of block `mine` (for Solver::restore_block_state): its own
// piece when the checkpoint was written with the same split, otherwise the cells its
// block needs from every piece that holds some (parallel/retile.hpp). Throws
// std::runtime_error on every rank when any rank finds a piece missing, truncated,
// damaged or of another checkpoint. `same_split` says which way it went.
SolverState read_block_state(const CheckpointManifest& m, const ranks::Subdomain& mine, bool* same_split = nullptr);

// Removes the checkpoint at `path` (the root does): the file, and the pieces of a
// checkpoint of several ranks.
void remove_checkpoint(const std::string& path);

}  // namespace flowlua::io
