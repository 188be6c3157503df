#include "io/checkpoint_pieces.hpp"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "io/checkpoint_hdf5.hpp"
#include "io/files.hpp"
#include "parallel/agree.hpp"
#include "parallel/ranks.hpp"
#include "parallel/retile.hpp"

namespace flowlua::io {

namespace fs = std::filesystem;

std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : bytes) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

namespace {

std::string pieces_folder_name(const std::string& path) { return fs::path(path).filename().string() + ".pieces"; }

std::string in_folder_of(const std::string& path, const std::string& name) {
  const fs::path parent = fs::path(path).parent_path();
  return (parent.empty() ? fs::path(name) : parent / name).string();
}

}  // namespace

void remove_checkpoint(const std::string& path) {
  if (!ranks::root()) return;
  std::remove(path.c_str());
  std::error_code ec;
  fs::remove_all(in_folder_of(path, pieces_folder_name(path)), ec);
}

#ifndef FLOWLUA_HAVE_HDF5

void write_checkpoint_pieces(const std::string& path, const Checkpoint&, const ranks::Subdomain&) {
  throw std::runtime_error("cannot write '" + path + "': this flowlua was built without HDF5 (checkpoints need it)");
}
SolverState read_block_state(const CheckpointManifest& m, const ranks::Subdomain&, bool*) {
  throw std::runtime_error("cannot read '" + m.path + "': this flowlua was built without HDF5 (checkpoints need it)");
}

#else

using namespace h5;

namespace {

std::string hex64(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016" PRIx64, v);
  return buf;
}

// The piece of rank r, relative to the manifest's folder.
std::string piece_name(const std::string& path, const std::string& generation, int r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "_r%04d.h5", r);
  return pieces_folder_name(path) + "/" + generation + buf;
}

// A number drawn by the root for this write, the same on every rank (collective).
std::string shared_generation() {
  double mine = -1;
  if (ranks::root()) {
    std::random_device rd;
    const std::uint64_t t = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    const std::uint64_t v = ((std::uint64_t(rd()) << 32) ^ rd() ^ (t * 0x9e3779b97f4a7c15ull)) & ((1ull << 48) - 1);
    mine = double(v);  // 48 bits travel exactly in a double
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%012" PRIx64, std::uint64_t(ranks::max(mine)));
  return buf;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open it");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read it");
  return s.str();
}

void put_block(hid_t at, int i0, int j0, int nx, int ny) {
  put_long(at, "i0", i0);
  put_long(at, "j0", j0);
  put_long(at, "nx", nx);
  put_long(at, "ny", ny);
}

// Rank r's piece, checked against the manifest.
SolverState read_piece(const CheckpointManifest& m, int r) {
  const CheckpointManifest::Piece& p = m.pieces[std::size_t(r)];
  const std::string where = "the piece of rank " + std::to_string(r) + " ('" + p.file + "') of checkpoint '" + m.path + "' ";
  std::string bytes;
  try {
    bytes = read_bytes(p.file);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where + "is missing or unreadable: " + e.what());
  }
  if (bytes.size() != p.bytes)
    throw std::runtime_error(where + "has " + std::to_string(bytes.size()) + " bytes where the manifest says " +
                             std::to_string(p.bytes) + " (truncated, or of another checkpoint)");
  if (fnv1a64(bytes) != p.checksum)
    throw std::runtime_error(where + "has checksum " + hex64(fnv1a64(bytes)) + " where the manifest says " +
                             hex64(p.checksum) + " (damaged, or of another checkpoint)");
  QuietErrors quiet;
  SolverState st;
  try {
    Id file(open_image(p.file, bytes), H5Fclose);
    if (!has(file, "format") || get_string(file, "format") != kFormat || get_long(file, "format_version") != kPiecesVersion ||
        !has(file, "piece_rank"))
      throw std::runtime_error("is not a flowlua checkpoint piece");
    if (get_long(file, "piece_rank") != r || get_string(file, "generation") != m.generation ||
        get_long(file, "step") != m.step)
      throw std::runtime_error("belongs to another checkpoint (rank " + std::to_string(get_long(file, "piece_rank")) +
                               ", generation " + get_string(file, "generation") + ", step " +
                               std::to_string(get_long(file, "step")) + ")");
    if (get_long(file, "i0") != p.i0 || get_long(file, "j0") != p.j0 || get_long(file, "nx") != p.nx ||
        get_long(file, "ny") != p.ny)
      throw std::runtime_error("holds another block than the manifest says");
    read_state(file, st);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where + e.what());
  }
  return st;
}

}  // namespace

std::shared_ptr<const CheckpointManifest> h5::read_manifest(hid_t file, const std::string& path) {
  if (has(file, "piece_rank"))
    throw std::runtime_error("this is the piece of rank " + std::to_string(get_long(file, "piece_rank")) +
                             " of a checkpoint written on " + std::to_string(get_long(file, "piece_ranks")) +
                             " ranks, not the checkpoint: restart from its manifest (the file '" +
                             fs::path(path).parent_path().filename().replace_extension().string() +
                             "' beside the pieces' folder)");
  auto m = std::make_shared<CheckpointManifest>();
  m->path = path;
  m->step = get_long(file, "step");
  if (H5Lexists(file, "pieces", H5P_DEFAULT) <= 0)
    throw std::runtime_error("format version 2 without the list of its pieces (/pieces)");
  Id g(check_id(H5Gopen2(file, "pieces", H5P_DEFAULT), "group pieces"), H5Gclose);
  m->nx = int(get_long(g, "nx"));
  m->ny = int(get_long(g, "ny"));
  const long n = get_long(g, "ranks");
  m->split.px = int(get_long(g, "px"));
  m->split.py = int(get_long(g, "py"));
  m->split.periodic_x = get_long(g, "periodic_x") != 0;
  m->split.periodic_y = get_long(g, "periodic_y") != 0;
  m->generation = get_string(g, "generation");
  if (n < 1 || m->split.px < 1 || m->split.py < 1 || long(m->split.px) * m->split.py != n || m->nx < 1 || m->ny < 1)
    throw std::runtime_error("its list of pieces is inconsistent (" + std::to_string(n) + " ranks, " +
                             std::to_string(m->split.px) + " x " + std::to_string(m->split.py) + " blocks)");
  for (long r = 0; r < n; ++r) {
    char name[32];
    std::snprintf(name, sizeof name, "rank_%04ld", r);
    if (H5Lexists(g, name, H5P_DEFAULT) <= 0) throw std::runtime_error(std::string("its list of pieces has no ") + name);
    Id pg(check_id(H5Gopen2(g, name, H5P_DEFAULT), name), H5Gclose);
    CheckpointManifest::Piece p;
    p.file = in_folder_of(path, get_string(pg, "file"));
    p.i0 = int(get_long(pg, "i0"));
    p.j0 = int(get_long(pg, "j0"));
    p.nx = int(get_long(pg, "nx"));
    p.ny = int(get_long(pg, "ny"));
    p.bytes = std::uint64_t(get_long(pg, "bytes"));
    const std::string sum = get_string(pg, "checksum");
    if (std::sscanf(sum.c_str(), "fnv1a64:%" SCNx64, &p.checksum) != 1)
      throw std::runtime_error(std::string(name) + " has a bad checksum '" + sum + "'");
    const ranks::Subdomain b = ranks::subdomain(m->split, m->nx, m->ny, int(r));
    if (b.i0 != p.i0 || b.j0 != p.j0 || b.nx != p.nx || b.ny != p.ny)
      throw std::runtime_error(std::string(name) + "'s block is not block " + std::to_string(r) + " of its split");
    // Every rank checks every piece now, so that all say the same before any runs.
    std::error_code ec;
    const auto size = fs::file_size(p.file, ec);
    if (ec) throw std::runtime_error("its piece of rank " + std::to_string(r) + " ('" + p.file + "') is missing");
    if (size != p.bytes)
      throw std::runtime_error("its piece of rank " + std::to_string(r) + " ('" + p.file + "') has " +
                               std::to_string(size) + " bytes where the manifest says " + std::to_string(p.bytes) +
                               " (truncated, or of another checkpoint)");
    m->pieces.push_back(std::move(p));
  }
  return m;
}

void write_checkpoint_pieces(const std::string& path, const Checkpoint& c, const ranks::Subdomain& block) {
  const std::string what = "cannot write checkpoint '" + path + "'";
  const std::string generation = shared_generation();
  const int me = ranks::rank(), n = ranks::size();
  const std::string piece = in_folder_of(path, piece_name(path, generation, me));
  std::string error, tmp;
  if (ranks::root()) try {
      make_parent_dirs(piece);  // the pieces' folder, before any rank writes into it
    } catch (const std::exception& e) {
      error = e.what();
    }
  ranks::agree(error, what);

  std::string bytes;
  try {
    QuietErrors quiet;
    try {
      bytes = memory_image(piece, [&](hid_t file) {
        write_header(file, c, kPiecesVersion);
        put_long(file, "piece_rank", me);
        put_long(file, "piece_ranks", n);
        put_string(file, "generation", generation);
        put_block(file, block.i0, block.j0, block.nx, block.ny);
        write_state(file, c.state);
      });
    } catch (const std::runtime_error& e) {
      throw std::runtime_error("cannot write '" + piece + "': HDF5 failed at " + e.what());
    }
    tmp = write_temp_file(piece, bytes);
  } catch (const std::exception& e) {
    error = e.what();
  }
  try {
    ranks::agree(error, what);  // every piece is whole under its temporary name
  } catch (...) {
    if (!tmp.empty()) std::remove(tmp.c_str());
    throw;
  }
  try {
    commit_temp_file(tmp, piece);
  } catch (const std::exception& e) {
    error = e.what();
  }
  ranks::agree(error, what);  // every piece is under its name: the manifest may name them

  const std::uint64_t mine[2] = {bytes.size(), fnv1a64(bytes)};
  std::vector<std::uint64_t> all(2 * std::size_t(n));
  std::vector<int> counts(static_cast<std::size_t>(n), 2), displs(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) displs[r] = 2 * r;
  ranks::allgatherv(mine, 2, all.data(), counts, displs);
  if (ranks::root()) try {
      QuietErrors quiet;
      std::string manifest;
      try {
        manifest = memory_image(path, [&](hid_t file) {
          write_header(file, c, kPiecesVersion);
          Id g(check_id(H5Gcreate2(file, "pieces", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group pieces"), H5Gclose);
          const ranks::Decomposition& d = block.decomposition;
          put_long(g, "nx", block.gnx);
          put_long(g, "ny", block.gny);
          put_long(g, "ranks", n);
          put_long(g, "px", d.px);
          put_long(g, "py", d.py);
          put_long(g, "periodic_x", d.periodic_x);
          put_long(g, "periodic_y", d.periodic_y);
          put_string(g, "generation", generation);
          for (int r = 0; r < n; ++r) {
            char name[32];
            std::snprintf(name, sizeof name, "rank_%04d", r);
            Id pg(check_id(H5Gcreate2(g, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), name), H5Gclose);
            const ranks::Subdomain b = ranks::subdomain(d, block.gnx, block.gny, r);
            put_string(pg, "file", piece_name(path, generation, r));
            put_block(pg, b.i0, b.j0, b.nx, b.ny);
            put_long(pg, "bytes", long(all[2 * std::size_t(r)]));
            put_string(pg, "checksum", hex64(all[2 * std::size_t(r) + 1]));
          }
        });
      } catch (const std::runtime_error& e) {
        throw std::runtime_error("cannot write '" + path + "': HDF5 failed at " + e.what());
      }
      write_rank_file_atomic(path, manifest);
      // The pieces of earlier writes of this path (no manifest names them now), and
      // temporary files a crash left.
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(fs::path(piece).parent_path(), ec))
        if (e.path().filename().string().rfind(generation + "_", 0) != 0 ||
            e.path().filename().string().find(".tmp.") != std::string::npos)
          fs::remove(e.path(), ec);
    } catch (const std::exception& e) {
      error = e.what();
    }
  ranks::agree(error, what);
}

SolverState read_block_state(const CheckpointManifest& m, const ranks::Subdomain& mine, bool* same_split) {
  const ranks::Decomposition& d = mine.decomposition;
  const bool same = int(m.pieces.size()) == ranks::size() && m.split.px == d.px && m.split.py == d.py &&
                    m.nx == mine.gnx && m.ny == mine.gny;
  if (same_split) *same_split = same;
  SolverState st;
  std::string error;
  try {
    if (m.nx != mine.gnx || m.ny != mine.gny)
      throw std::runtime_error("checkpoint '" + m.path + "' is of a " + std::to_string(m.nx) + " x " +
                               std::to_string(m.ny) + " grid, this simulation's is " + std::to_string(mine.gnx) +
                               " x " + std::to_string(mine.gny));
    if (same) {
      st = read_piece(m, ranks::rank());
    } else {
      ranks::Retiler t(mine, m.split);
      for (int r = 0; r < int(m.pieces.size()); ++r) {
        const ranks::Subdomain b = ranks::subdomain(m.split, m.nx, m.ny, r);
        if (ranks::block_needed(b, mine)) t.add(b, read_piece(m, r));
      }
      st = t.finish();
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  ranks::agree(error, "cannot restart from checkpoint '" + m.path + "'");
  return st;
}

#endif

}  // namespace flowlua::io
