// The HDF5 side of checkpoint files, shared by the one-file checkpoint
// (io/checkpoint.cpp) and the pieces and manifest of several MPI ranks
// (io/checkpoint_pieces.cpp). Internal: only for builds with HDF5.
#pragma once
#ifdef FLOWLUA_HAVE_HDF5
#include <hdf5.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/checkpoint.hpp"

namespace flowlua::io::h5 {

constexpr const char* kFormat = "flowlua checkpoint";
constexpr long kWholeVersion = 1;   // one file with the whole state (one rank)
constexpr long kPiecesVersion = 2;  // a manifest or a piece (several ranks)

// An HDF5 identifier closed when it goes out of scope.
struct Id {
  hid_t id = H5I_INVALID_HID;
  herr_t (*close)(hid_t) = nullptr;
  Id(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  ~Id() { if (id >= 0 && close) close(id); }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return id; }
};

// Throw std::runtime_error(what) when HDF5 reports a failure.
void check(herr_t status, const std::string& what);
hid_t check_id(hid_t id, const std::string& what);

void put_string(hid_t at, const std::string& name, const std::string& value);
void put_double(hid_t at, const std::string& name, double value);
void put_long(hid_t at, const std::string& name, long value);
std::string get_string(hid_t at, const std::string& name);
double get_double(hid_t at, const std::string& name);
long get_long(hid_t at, const std::string& name);
bool has(hid_t at, const std::string& name);  // an attribute called `name`
// Names of the attributes of `at`, by name.
std::vector<std::string> attribute_names(hid_t at);
// Names of the links (groups, datasets) in group `g`, by name.
std::vector<std::string> link_names(hid_t g);

// Keeps HDF5 from printing its own error stack: the messages here say what failed.
struct QuietErrors {
  H5E_auto2_t fn = nullptr;
  void* data = nullptr;
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, fn, data); }
};

// A file built in memory by `fill` (given the open file), as its bytes; `name` only
// names it for HDF5. std::runtime_error saying which step failed.
std::string memory_image(const std::string& name, const std::function<void(hid_t file)>& fill);
// A file opened read-only from its bytes (which must outlive it); `name` is unused.
hid_t open_image(const std::string& name, const std::string& bytes);

// The header attributes (format, format_version, flowlua_version, model, ..., step,
// time) and /params of `c`.
void write_header(hid_t file, const Checkpoint& c, long format_version);
// /scalars and /arrays of `st`; arrays of a block get their "tile" attribute.
void write_state(hid_t file, const SolverState& st);
// The header after format and format_version (which the caller checked).
void read_header(hid_t file, Checkpoint& c);
void read_state(hid_t file, SolverState& st);

// The manifest in an open format_version 2 file at `path` (io/checkpoint_pieces.cpp):
// refuses a piece, and checks that every piece it names is there with its size.
std::shared_ptr<const CheckpointManifest> read_manifest(hid_t file, const std::string& path);

}  // namespace flowlua::io::h5
#endif
