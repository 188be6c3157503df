#include "io/checkpoint_hdf5.hpp"

#ifdef FLOWLUA_HAVE_HDF5
#include <cstdint>
#include <stdexcept>

namespace flowlua::io::h5 {

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

bool has(hid_t at, const std::string& name) { return H5Aexists(at, name.c_str()) > 0; }

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

namespace {
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

const char* tile_name(SolverState::Tile t) {
  switch (t) {
    case SolverState::Tile::Planes: return "planes";
    case SolverState::Tile::Ring: return "ring";
    default: return "";
  }
}
}  // namespace

std::vector<std::string> link_names(hid_t g) {
  std::vector<std::string> names;
  check(FLOWLUA_H5_LITERATE(g, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_link, &names), "listing a group");
  return names;
}

std::string memory_image(const std::string& name, const std::function<void(hid_t file)>& fill) {
  // The core driver without a backing store: nothing reaches the disk here.
  Id fapl(check_id(H5Pcreate(H5P_FILE_ACCESS), "file access list"), H5Pclose);
  check(H5Pset_fapl_core(fapl, 1 << 20, 0), "in-memory file driver");
  Id file(check_id(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "creating the file"), H5Fclose);
  fill(file);
  check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush");
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size <= 0) throw std::runtime_error("file image");
  std::string image(std::size_t(size), '\0');
  if (H5Fget_file_image(file, image.data(), image.size()) != size) throw std::runtime_error("file image");
  return image;
}

hid_t open_image(const std::string&, const std::string& bytes) {
  Id fapl(check_id(H5Pcreate(H5P_FILE_ACCESS), "file access list"), H5Pclose);
  check(H5Pset_fapl_core(fapl, 1 << 20, 0), "in-memory file driver");
  check(H5Pset_file_image(fapl, const_cast<char*>(bytes.data()), bytes.size()), "file image");
  // A name with no file behind it: HDF5 1.10's core driver refuses an image given
  // for a name that exists on disk ("file already exists").
  return check_id(H5Fopen("/nonexistent/flowlua/in-memory-image.h5", H5F_ACC_RDONLY, fapl),
                  "not an HDF5 file, or a damaged one");
}

void write_header(hid_t file, const Checkpoint& c, long format_version) {
  put_string(file, "format", kFormat);
  put_long(file, "format_version", format_version);
  put_string(file, "flowlua_version", c.flowlua_version);
  put_string(file, "model", c.model);
  put_string(file, "precision", c.precision);
  put_string(file, "backend", c.backend);
  put_string(file, "case_hash", c.case_hash);
  put_string(file, "case_file", c.case_file);
  put_long(file, "simulation", c.simulation);
  put_long(file, "step", c.step);
  put_double(file, "time", c.time);
  Id g(check_id(H5Gcreate2(file, "params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group params"), H5Gclose);
  for (const auto& [k, v] : c.params) put_string(g, k, v);
}

void write_state(hid_t file, const SolverState& st) {
  {
    Id g(check_id(H5Gcreate2(file, "scalars", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group scalars"), H5Gclose);
    for (const auto& [k, v] : st.scalars) put_double(g, k, v);
  }
  Id g(check_id(H5Gcreate2(file, "arrays", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group arrays"), H5Gclose);
  for (const auto& a : st.arrays) {
    const hsize_t n = a.values.size();
    const hsize_t dims[2] = {hsize_t(a.rows), hsize_t(a.cols)};
    const bool grid = a.rows > 0 && dims[0] * dims[1] == n;
    Id space(check_id(grid ? H5Screate_simple(2, dims, nullptr) : H5Screate_simple(1, &n, nullptr), "array space"),
             H5Sclose);
    Id set(check_id(H5Dcreate2(g, a.name.c_str(), a.single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, space, H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT),
                    "dataset " + a.name),
           H5Dclose);
    // Doubles in memory; HDF5 narrows to float for single arrays (exact: they came from float).
    if (n > 0) check(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values.data()), "dataset " + a.name);
    if (!a.layout.empty()) put_string(set, "layout", a.layout);
    if (a.tile != SolverState::Tile::None) put_string(set, "tile", tile_name(a.tile));
  }
}

void read_header(hid_t file, Checkpoint& c) {
  c.flowlua_version = get_string(file, "flowlua_version");
  c.model = get_string(file, "model");
  c.precision = get_string(file, "precision");
  c.backend = get_string(file, "backend");
  c.case_hash = get_string(file, "case_hash");
  c.case_file = get_string(file, "case_file");
  c.simulation = int(get_long(file, "simulation"));
  c.step = get_long(file, "step");
  c.time = get_double(file, "time");
  Id g(check_id(H5Gopen2(file, "params", H5P_DEFAULT), "group params"), H5Gclose);
  for (const auto& k : attribute_names(g)) c.params.emplace_back(k, get_string(g, k));
}

void read_state(hid_t file, SolverState& st) {
  {
    Id g(check_id(H5Gopen2(file, "scalars", H5P_DEFAULT), "group scalars"), H5Gclose);
    for (const auto& k : attribute_names(g)) st.scalars.emplace_back(k, get_double(g, k));
  }
  Id g(check_id(H5Gopen2(file, "arrays", H5P_DEFAULT), "group arrays"), H5Gclose);
  for (const auto& name : link_names(g)) {
    Id set(check_id(H5Dopen2(g, name.c_str(), H5P_DEFAULT), "dataset " + name), H5Dclose);
    Id space(check_id(H5Dget_space(set), "dataset space"), H5Sclose);
    Id type(check_id(H5Dget_type(set), "dataset type"), H5Tclose);
    const int ndims = H5Sget_simple_extent_ndims(space);
    if (ndims != 1 && ndims != 2) throw std::runtime_error("dataset " + name + " is not 1D or 2D");
    hsize_t dims[2] = {0, 0};
    H5Sget_simple_extent_dims(space, dims, nullptr);
    const hsize_t n = hsize_t(H5Sget_simple_extent_npoints(space));
    SolverState::Array a;
    a.name = name;
    a.single = H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == 4;
    if (ndims == 2) {
      a.rows = std::size_t(dims[0]);
      a.cols = std::size_t(dims[1]);
    }
    a.values.resize(n);
    if (n > 0) check(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values.data()), "dataset " + name);
    if (has(set, "tile")) {
      const std::string t = get_string(set, "tile");
      if (t == "planes") a.tile = SolverState::Tile::Planes;
      else if (t == "ring") a.tile = SolverState::Tile::Ring;
      else throw std::runtime_error("dataset " + name + " has an unknown tile '" + t + "'");
    }
    st.arrays.push_back(std::move(a));
  }
}

}  // namespace flowlua::io::h5
#endif
