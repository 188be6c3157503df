#include "io/checkpoint.hpp"
#include "parallel/ranks.hpp"

#include <cstdint>
#include <stdexcept>

#include "io/files.hpp"

#ifdef FLOWLUA_HAVE_HDF5
#include <hdf5.h>
#endif

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

namespace {

constexpr const char* kFormat = "flowlua checkpoint";
constexpr int kFormatVersion = 1;

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

void check(herr_t status, const std::string& what) {
  if (status < 0) throw std::runtime_error(what);
}
hid_t check_id(hid_t id, const std::string& what) {
  if (id < 0) throw std::runtime_error(what);
  return id;
}

void put_string(hid_t at, const std::string& name, const std::string& value) {
  Id type(check_id(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
  check(H5Tset_size(type, value.empty() ? 1 : value.size()), "string size");
  check(H5Tset_strpad(type, H5T_STR_NULLTERM), "string padding");
  Id space(check_id(H5Screate(H5S_SCALAR), "scalar space"), H5Sclose);
  Id attr(check_id(H5Acreate2(at, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), "attribute " + name),
          H5Aclose);
  check(H5Awrite(attr, type, value.c_str()), "attribute " + name);
}

void put_double(hid_t at, const std::string& name, double value) {
  Id space(check_id(H5Screate(H5S_SCALAR), "scalar space"), H5Sclose);
  Id attr(check_id(H5Acreate2(at, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT),
                   "attribute " + name),
          H5Aclose);
  check(H5Awrite(attr, H5T_NATIVE_DOUBLE, &value), "attribute " + name);
}

void put_long(hid_t at, const std::string& name, long value) {
  Id space(check_id(H5Screate(H5S_SCALAR), "scalar space"), H5Sclose);
  Id attr(check_id(H5Acreate2(at, name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT),
                   "attribute " + name),
          H5Aclose);
  const std::int64_t v = value;
  check(H5Awrite(attr, H5T_NATIVE_INT64, &v), "attribute " + name);
}

std::string get_string(hid_t at, const std::string& name) {
  Id attr(check_id(H5Aopen(at, name.c_str(), H5P_DEFAULT), "no attribute '" + name + "'"), H5Aclose);
  Id type(check_id(H5Aget_type(attr), "attribute type"), H5Tclose);
  if (H5Tget_class(type) != H5T_STRING) throw std::runtime_error("attribute '" + name + "' is not a string");
  const std::size_t n = H5Tget_size(type);
  std::string s(n, '\0');
  Id mem(check_id(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
  check(H5Tset_size(mem, n), "string size");
  check(H5Aread(attr, mem, s.data()), "attribute " + name);
  s.resize(s.find('\0') == std::string::npos ? n : s.find('\0'));
  return s;
}

double get_double(hid_t at, const std::string& name) {
  Id attr(check_id(H5Aopen(at, name.c_str(), H5P_DEFAULT), "no attribute '" + name + "'"), H5Aclose);
  double v = 0;
  check(H5Aread(attr, H5T_NATIVE_DOUBLE, &v), "attribute " + name);
  return v;
}

long get_long(hid_t at, const std::string& name) {
  Id attr(check_id(H5Aopen(at, name.c_str(), H5P_DEFAULT), "no attribute '" + name + "'"), H5Aclose);
  std::int64_t v = 0;
  check(H5Aread(attr, H5T_NATIVE_INT64, &v), "attribute " + name);
  return long(v);
}

// Names of the attributes of `at`, in creation order where tracked (else by name).
std::vector<std::string> attribute_names(hid_t at) {
  std::vector<std::string> names;
#if H5_VERSION_GE(1, 12, 0)
  H5O_info2_t info;
  check(H5Oget_info3(at, &info, H5O_INFO_NUM_ATTRS), "object info");
#else
  H5O_info_t info;
  check(H5Oget_info2(at, &info, H5O_INFO_NUM_ATTRS), "object info");
#endif
  for (hsize_t k = 0; k < info.num_attrs; ++k) {
    char buf[1024];
    const ssize_t n = H5Aget_name_by_idx(at, ".", H5_INDEX_NAME, H5_ITER_INC, k, buf, sizeof buf, H5P_DEFAULT);
    if (n < 0) throw std::runtime_error("attribute name");
    names.emplace_back(buf, std::size_t(n));
  }
  return names;
}

#if H5_VERSION_GE(1, 12, 0)
using LinkInfo = H5L_info2_t;
#define FLOWLUA_H5_LITERATE H5Literate2
#else
using LinkInfo = H5L_info_t;
#define FLOWLUA_H5_LITERATE H5Literate
#endif
herr_t collect_link(hid_t, const char* name, const LinkInfo*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

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

}  // namespace

bool checkpoints_available() { return true; }

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  if (!ranks::root()) return;  // every rank holds the gathered state; the root writes it
  QuietErrors quiet;
  std::vector<unsigned char> image;
  try {
    // Built in memory (the core driver without a backing store), then written atomically.
    Id fapl(check_id(H5Pcreate(H5P_FILE_ACCESS), "file access list"), H5Pclose);
    check(H5Pset_fapl_core(fapl, 1 << 20, 0), "in-memory file driver");
    Id file(check_id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "creating the file"), H5Fclose);
    put_string(file, "format", kFormat);
    put_long(file, "format_version", kFormatVersion);
    put_string(file, "flowlua_version", c.flowlua_version);
    put_string(file, "model", c.model);
    put_string(file, "precision", c.precision);
    put_string(file, "backend", c.backend);
    put_string(file, "case_hash", c.case_hash);
    put_string(file, "case_file", c.case_file);
    put_long(file, "simulation", c.simulation);
    put_long(file, "step", c.step);
    put_double(file, "time", c.time);
    {
      Id g(check_id(H5Gcreate2(file, "params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group params"), H5Gclose);
      for (const auto& [k, v] : c.params) put_string(g, k, v);
    }
    {
      Id g(check_id(H5Gcreate2(file, "scalars", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group scalars"), H5Gclose);
      for (const auto& [k, v] : c.state.scalars) put_double(g, k, v);
    }
    Id g(check_id(H5Gcreate2(file, "arrays", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group arrays"), H5Gclose);
    for (const auto& a : c.state.arrays) {
      const hsize_t n = a.values.size();
      const hsize_t dims[2] = {hsize_t(a.rows), hsize_t(a.cols)};
      const bool grid = a.rows > 0 && dims[0] * dims[1] == n;
      Id space(check_id(grid ? H5Screate_simple(2, dims, nullptr) : H5Screate_simple(1, &n, nullptr), "array space"),
               H5Sclose);
      Id set(check_id(H5Dcreate2(g, a.name.c_str(), a.single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, space,
                                 H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                      "dataset " + a.name),
             H5Dclose);
      // Doubles in memory; HDF5 narrows to float for single arrays (exact: they came from float).
      if (n > 0) check(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values.data()), "dataset " + a.name);
      if (!a.layout.empty()) put_string(set, "layout", a.layout);
    }
    check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush");
    const ssize_t size = H5Fget_file_image(file, nullptr, 0);
    if (size <= 0) throw std::runtime_error("file image");
    image.resize(std::size_t(size));
    if (H5Fget_file_image(file, image.data(), image.size()) != size) throw std::runtime_error("file image");
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot write '" + path + "': HDF5 failed at " + e.what());
  }
  write_file_atomic(path, std::string(image.begin(), image.end()));
}

Checkpoint read_checkpoint(const std::string& path) {
  QuietErrors quiet;
  Checkpoint c;
  const std::string where = "cannot read checkpoint '" + path + "': ";
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw std::runtime_error(where + "no such file, or not an HDF5 file");
  try {
    Id file(check_id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "opening the file"), H5Fclose);
    if (H5Aexists(file, "format") <= 0 || get_string(file, "format") != kFormat)
      throw std::runtime_error("an HDF5 file, but not a flowlua checkpoint");
    const long version = get_long(file, "format_version");
    if (version != kFormatVersion)
      throw std::runtime_error("format version " + std::to_string(version) + "; this flowlua reads version " +
                               std::to_string(kFormatVersion));
    c.flowlua_version = get_string(file, "flowlua_version");
    c.model = get_string(file, "model");
    c.precision = get_string(file, "precision");
    c.backend = get_string(file, "backend");
    c.case_hash = get_string(file, "case_hash");
    c.case_file = get_string(file, "case_file");
    c.simulation = int(get_long(file, "simulation"));
    c.step = get_long(file, "step");
    c.time = get_double(file, "time");
    {
      Id g(check_id(H5Gopen2(file, "params", H5P_DEFAULT), "group params"), H5Gclose);
      for (const auto& k : attribute_names(g)) c.params.emplace_back(k, get_string(g, k));
    }
    {
      Id g(check_id(H5Gopen2(file, "scalars", H5P_DEFAULT), "group scalars"), H5Gclose);
      for (const auto& k : attribute_names(g)) c.state.scalars.emplace_back(k, get_double(g, k));
    }
    Id g(check_id(H5Gopen2(file, "arrays", H5P_DEFAULT), "group arrays"), H5Gclose);
    std::vector<std::string> names;
    check(FLOWLUA_H5_LITERATE(g, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_link, &names), "listing arrays");
    for (const auto& name : names) {
      Id set(check_id(H5Dopen2(g, name.c_str(), H5P_DEFAULT), "dataset " + name), H5Dclose);
      Id space(check_id(H5Dget_space(set), "dataset space"), H5Sclose);
      Id type(check_id(H5Dget_type(set), "dataset type"), H5Tclose);
      const int ndims = H5Sget_simple_extent_ndims(space);
      if (ndims != 1 && ndims != 2) throw std::runtime_error("dataset " + name + " is not 1D or 2D");
      const hsize_t n = hsize_t(H5Sget_simple_extent_npoints(space));
      SolverState::Array a;
      a.name = name;
      a.single = H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == 4;
      a.values.resize(n);
      if (n > 0) check(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values.data()), "dataset " + name);
      c.state.arrays.push_back(std::move(a));
    }
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where + e.what());
  }
  return c;
}

#endif

}  // namespace flowlua::io
