// VTK XML ImageData (.vti) files and the ParaView collection (.pvd) that lists them.
//
// One .vti holds cell data on a uniform grid: every array is written binary in the
// file's appended section (base64 would cost a third more), zlib-compressed when
// flowlua is built with zlib (vtkZLibDataCompressor block layout, UInt64 headers), and
// the simulated time and step go into the file's field data (TimeValue, as ParaView
// expects it). The format is Kitware's "VTK File Formats" (VTK User's Guide, ch. 19,
// "XML File Formats"), read by vtkXMLImageDataReader.
//
// The writer knows nothing about models: it takes named arrays of nx*ny*nz cell values
// (i fastest, then j, then k), as a Simulation's snapshots give them. 2D images have
// nz = 0 (the z extent is "0 0", one layer of points); 3D ones nz >= 1 cells.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace flowlua::io {

struct VtkImage {
  int nx = 0, ny = 0, nz = 0;           // cells; nz = 0: a 2D image
  double dx = 1, dy = 1, dz = 1;        // cell size (dz unused in 2D)
  double ox = 0, oy = 0, oz = 0;        // physical position of the corner point (0, 0, 0)
  double time = 0;                      // field data TimeValue
  long step = 0;                        // field data Step
  bool compress = true;                 // zlib when built with it (vtk_compression_available)

  struct Array {
    std::string name;
    int components = 1;                 // 1 (scalar) or 3 (vector, xyz interleaved)
    std::vector<double> values;         // Float64, cells * components
  };
  std::vector<Array> arrays;            // cell data, in this order
  std::vector<std::uint8_t> solid;      // cells; written as UInt8 "solid" when not empty
  // A piece of a parallel set (io/vtk_pieces.hpp): these cells start at cell (x0, y0)
  // of the whole image, whose origin (ox, oy, oz) is. 0, 0: the image is whole.
  int x0 = 0, y0 = 0;

  long cells() const { return long(nx) * ny * (nz > 0 ? nz : 1); }
};

// Whether this build writes compressed .vti files (zlib found at configure time).
bool vtk_compression_available();
// The zlib version string ("1.2.13"), or "" without zlib.
const char* vtk_zlib_version();

// The .vti document. Throws std::logic_error when the arrays do not match the extent
// and flowlua::CaseError for an empty grid or a bad array name.
std::string encode_vti(const VtkImage& image);
// encode_vti written atomically (io/files.hpp), folders created; errors name `path`.
void write_vti(const std::string& path, const VtkImage& image);

// A ParaView collection: every data set written so far with its time. Each add()
// rewrites the whole .pvd atomically, so the collection on disk is always a complete
// document that lists files which exist.
class PvdCollection {
 public:
  explicit PvdCollection(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }
  // `file` is the data set's path; the .pvd stores it relative to its own folder. A
  // file already listed (written again at the same path) replaces its entry.
  void add(double time, const std::string& file);
  std::size_t size() const { return entries_.size(); }
  std::string document() const;

 private:
  struct Entry {
    double time;
    std::string file;  // relative to the .pvd's folder
  };
  std::string path_;
  std::vector<Entry> entries_;
};

}  // namespace flowlua::io
