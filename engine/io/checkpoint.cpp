#include "io/checkpoint.hpp"

#include <stdexcept>

#include "io/checkpoint_hdf5.hpp"
#include "io/checkpoint_pieces.hpp"
#include "io/files.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::io {

#ifndef FLOWLUA_HAVE_HDF5

bool checkpoints_available() { return false; }
void write_checkpoint(const std::string& path, const Checkpoint&) {
  throw std::runtime_error("cannot write '" + path + "': this flowlua was built without HDF5 (checkpoints need it)");
}
Checkpoint read_checkpoint(const std::string& path) {
  throw std::runtime_error("cannot read '" + path + "': this flowlua was built without HDF5 (checkpoints need it)");
}

#else

using namespace h5;

bool checkpoints_available() { return true; }

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  if (!ranks::root()) return;  // every rank holds the gathered state; the root writes it
  QuietErrors quiet;
  std::string image;
  try {
    image = memory_image(path, [&](hid_t file) {
      write_header(file, c, kWholeVersion);
      write_state(file, c.state);
    });
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot write '" + path + "': HDF5 failed at " + e.what());
  }
  write_file_atomic(path, image);
}

Checkpoint read_checkpoint(const std::string& path) {
  QuietErrors quiet;
  Checkpoint c;
  const std::string where = "cannot read checkpoint '" + path + "': ";
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw std::runtime_error(where + "no such file, or not an HDF5 file");
  try {
    Id file(check_id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "opening the file"), H5Fclose);
    if (!has(file, "format") || get_string(file, "format") != kFormat)
      throw std::runtime_error("an HDF5 file, but not a flowlua checkpoint");
    const long version = get_long(file, "format_version");
    if (version != kWholeVersion && version != kPiecesVersion)
      throw std::runtime_error("format version " + std::to_string(version) + "; this flowlua reads versions " +
                               std::to_string(kWholeVersion) + " (one file) and " + std::to_string(kPiecesVersion) +
                               " (pieces of several MPI ranks)");
    read_header(file, c);
    if (version == kWholeVersion) read_state(file, c.state);
    else c.pieces = read_manifest(file, path);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where + e.what());
  }
  return c;
}

#endif

}  // namespace flowlua::io
