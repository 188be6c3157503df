#include "io/vtk.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/error.hpp"
#include "io/files.hpp"
#include "io/vtk_text.hpp"

#ifdef FLOWLUA_HAVE_ZLIB
#include <zlib.h>
#endif

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the .vti writer declares LittleEndian byte order");

namespace flowlua::io {

namespace {

// VTK's own default block size for compressed arrays.
constexpr std::size_t kBlockBytes = 32768;

using vtk_text::number;
using vtk_text::xml_escape;

void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);
  out.append(b, 8);
}

// One array's bytes as they appear in the appended section: a UInt64 byte count and
// the raw bytes, or the zlib header (block count, block size, last partial block size,
// compressed size of each block) and the compressed blocks.
std::string appended_block(const void* data, std::size_t bytes, bool compress) {
  std::string out;
#ifdef FLOWLUA_HAVE_ZLIB
  if (compress) {
    const std::size_t blocks = (bytes + kBlockBytes - 1) / kBlockBytes;
    std::vector<std::uint64_t> sizes(blocks);
    std::string body;
    std::vector<unsigned char> buf(compressBound(uLong(kBlockBytes)));
    const auto* src = static_cast<const unsigned char*>(data);
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::size_t n = std::min(kBlockBytes, bytes - b * kBlockBytes);
      uLongf len = uLongf(buf.size());
      if (compress2(buf.data(), &len, src + b * kBlockBytes, uLong(n), Z_DEFAULT_COMPRESSION) != Z_OK)
        throw std::runtime_error("zlib could not compress an array");
      sizes[b] = len;
      body.append(reinterpret_cast<const char*>(buf.data()), len);
    }
    put_u64(out, blocks);
    put_u64(out, kBlockBytes);
    put_u64(out, bytes % kBlockBytes);  // 0: the last block is full
    for (std::uint64_t s : sizes) put_u64(out, s);
    out += body;
    return out;
  }
#else
  (void)compress;
#endif
  put_u64(out, bytes);
  out.append(static_cast<const char*>(data), bytes);
  return out;
}

}  // namespace

bool vtk_compression_available() {
#ifdef FLOWLUA_HAVE_ZLIB
  return true;
#else
  return false;
#endif
}

const char* vtk_zlib_version() {
#ifdef FLOWLUA_HAVE_ZLIB
  return zlibVersion();
#else
  return "";
#endif
}

std::string encode_vti(const VtkImage& im) {
  if (im.nx <= 0 || im.ny <= 0 || im.nz < 0)
    throw CaseError("VTK image: the grid has no cells (" + std::to_string(im.nx) + " x " + std::to_string(im.ny) +
                    (im.nz > 0 ? " x " + std::to_string(im.nz) : std::string()) + ")");
  const std::size_t cells = std::size_t(im.cells());
  for (const auto& a : im.arrays) {
    if (a.name.empty()) throw CaseError("VTK image: an array without a name");
    if (a.components != 1 && a.components != 3)
      throw std::logic_error("VTK image: array '" + a.name + "' has " + std::to_string(a.components) +
                             " components (1 or 3)");
    if (a.values.size() != cells * std::size_t(a.components))
      throw std::logic_error("VTK image: array '" + a.name + "' has " + std::to_string(a.values.size()) +
                             " values for " + std::to_string(cells) + " cells");
  }
  if (!im.solid.empty() && im.solid.size() != cells)
    throw std::logic_error("VTK image: the solid mask does not match the grid");
  const bool zlib = im.compress && vtk_compression_available();
  const bool is3d = im.nz > 0;

  std::string appended, xml;
  auto data_array = [&](const std::string& type, const std::string& name, int components, const void* data,
                        std::size_t bytes) {
    xml += "        <DataArray type=\"" + type + "\" Name=\"" + xml_escape(name) + "\"";
    if (components != 1) xml += " NumberOfComponents=\"" + std::to_string(components) + "\"";
    xml += " format=\"appended\" offset=\"" + std::to_string(appended.size()) + "\"/>\n";
    appended += appended_block(data, bytes, zlib);
  };

  // A piece of a parallel set (io/vtk_pieces.hpp) has its own extent inside the whole
  // image's (the points of cells x0 .. x0 + nx - 1 are x0 .. x0 + nx) and the whole
  // image's origin; its WholeExtent is its own, so that it reads alone as its block.
  const std::string extent = std::to_string(im.x0) + " " + std::to_string(im.x0 + im.nx) + " " +
                             std::to_string(im.y0) + " " + std::to_string(im.y0 + im.ny) + " 0 " +
                             std::to_string(is3d ? im.nz : 0);
  xml += "<?xml version=\"1.0\"?>\n";
  xml += "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\"";
  if (zlib) xml += " compressor=\"vtkZLibDataCompressor\"";
  xml += ">\n";
  xml += "  <ImageData WholeExtent=\"" + extent + "\" Origin=\"" + number(im.ox) + " " + number(im.oy) + " " +
         number(im.oz) + "\" Spacing=\"" + number(im.dx) + " " + number(im.dy) + " " +
         number(is3d ? im.dz : im.dx) + "\">\n";
  xml += "    <FieldData>\n";
  xml += "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">" +
         number(im.time) + "</DataArray>\n";
  xml += "      <DataArray type=\"Int64\" Name=\"Step\" NumberOfTuples=\"1\" format=\"ascii\">" +
         std::to_string(im.step) + "</DataArray>\n";
  xml += "    </FieldData>\n";
  xml += "    <Piece Extent=\"" + extent + "\">\n";
  std::string scalars, vectors;
  for (const auto& a : im.arrays) {
    if (a.components == 1 && scalars.empty()) scalars = a.name;
    if (a.components == 3 && vectors.empty()) vectors = a.name;
  }
  xml += "      <CellData";
  if (!scalars.empty()) xml += " Scalars=\"" + xml_escape(scalars) + "\"";
  if (!vectors.empty()) xml += " Vectors=\"" + xml_escape(vectors) + "\"";
  xml += ">\n";
  for (const auto& a : im.arrays)
    data_array("Float64", a.name, a.components, a.values.data(), a.values.size() * sizeof(double));
  if (!im.solid.empty()) data_array("UInt8", "solid", 1, im.solid.data(), im.solid.size());
  xml += "      </CellData>\n";
  xml += "    </Piece>\n";
  xml += "  </ImageData>\n";
  xml += "  <AppendedData encoding=\"raw\">\n   _";
  xml += appended;
  xml += "\n  </AppendedData>\n</VTKFile>\n";
  return xml;
}

void write_vti(const std::string& path, const VtkImage& image) {
  std::string bytes;
  try {
    bytes = encode_vti(image);
  } catch (const CaseError& e) {
    throw CaseError("cannot write '" + path + "': " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot write '" + path + "': " + e.what());
  }
  make_parent_dirs(path);
  write_file_atomic(path, bytes);
}

void PvdCollection::add(double time, const std::string& file) {
  namespace fs = std::filesystem;
  fs::path base = fs::path(path_).parent_path();
  std::string rel = fs::path(file).lexically_proximate(base.empty() ? fs::path(".") : base).generic_string();
  auto same = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.file == rel; });
  if (same != entries_.end()) same->time = time;
  else entries_.push_back({time, rel});
  make_parent_dirs(path_);
  write_file_atomic(path_, document());
}

std::string PvdCollection::document() const {
  std::string xml = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
                    "  <Collection>\n";
  for (const auto& e : entries_)
    xml += "    <DataSet timestep=\"" + number(e.time) + "\" part=\"0\" file=\"" + xml_escape(e.file) + "\"/>\n";
  xml += "  </Collection>\n</VTKFile>\n";
  return xml;
}

}  // namespace flowlua::io
