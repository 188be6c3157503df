// The .vti writer: the XML header, the appended arrays decoded by hand (raw and zlib
// blocks) and the .pvd collection. VTK's own reader checks the files of real runs in
// tests/vtk (ctest vtk.readback).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>

#include <unistd.h>

#ifdef FLOWLUA_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/error.hpp"
#include "io/vtk.hpp"
#include "io/vtk_fields.hpp"

namespace fs = std::filesystem;
using namespace flowlua;
using namespace flowlua::io;

namespace {

std::uint64_t u64(const std::string& s, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, s.data() + at, 8);
  return v;
}

// The bytes of the array whose DataArray carries `name`, decoded from the appended section.
std::string array_bytes(const std::string& doc, const std::string& name) {
  std::smatch m;
  std::regex re("Name=\"" + name + "\"[^>]*offset=\"([0-9]+)\"");
  if (!std::regex_search(doc, m, re)) throw std::runtime_error("no array " + name);
  const std::size_t start = doc.find("<AppendedData encoding=\"raw\">");
  const std::size_t base = doc.find('_', start) + 1 + std::stoull(m[1]);
  if (doc.find("vtkZLibDataCompressor") == std::string::npos) {
    return doc.substr(base + 8, u64(doc, base));
  }
#ifdef FLOWLUA_HAVE_ZLIB
  const std::uint64_t blocks = u64(doc, base), block = u64(doc, base + 8), last = u64(doc, base + 16);
  std::size_t at = base + 24 + 8 * blocks;
  std::string out;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t csize = u64(doc, base + 24 + 8 * b);
    uLongf n = uLongf((b + 1 == blocks && last) ? last : block);
    std::string raw(n, '\0');
    EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(raw.data()), &n, reinterpret_cast<const Bytef*>(doc.data() + at), csize),
              Z_OK);
    out += raw.substr(0, n);
    at += csize;
  }
  return out;
#else
  throw std::runtime_error("compressed without zlib");
#endif
}

std::vector<double> doubles(const std::string& bytes) {
  std::vector<double> v(bytes.size() / 8);
  std::memcpy(v.data(), bytes.data(), v.size() * 8);
  return v;
}

VtkImage image3d(int nx, int ny, int nz, bool compress) {
  VtkImage im;
  im.nx = nx; im.ny = ny; im.nz = nz;
  im.dx = 0.5; im.dy = 0.25; im.dz = 0.125;
  im.ox = 1; im.oy = 2; im.oz = 3;
  im.time = 0.1;  // not exact in binary: must come back as the same double
  im.step = 42;
  im.compress = compress;
  VtkImage::Array a{"T", 1, {}};
  for (long c = 0; c < im.cells(); ++c) a.values.push_back(std::sin(0.37 * double(c)) * 1e3 + c);
  im.arrays.push_back(a);
  im.solid.assign(std::size_t(im.cells()), 0);
  im.solid[5] = 1;
  return im;
}

}  // namespace

TEST(Vtk, HeaderHasThe3DExtentOriginSpacingAndTime) {
  VtkImage im = image3d(4, 3, 2, false);
  const std::string doc = encode_vti(im);
  EXPECT_NE(doc.find("WholeExtent=\"0 4 0 3 0 2\""), std::string::npos);
  EXPECT_NE(doc.find("Piece Extent=\"0 4 0 3 0 2\""), std::string::npos);
  EXPECT_NE(doc.find("Origin=\"1 2 3\""), std::string::npos);
  EXPECT_NE(doc.find("Spacing=\"0.5 0.25 0.125\""), std::string::npos);
  EXPECT_NE(doc.find("Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">0.1<"), std::string::npos);
  EXPECT_NE(doc.find("Name=\"Step\" NumberOfTuples=\"1\" format=\"ascii\">42<"), std::string::npos);
  EXPECT_EQ(doc.find("compressor="), std::string::npos);
}

TEST(Vtk, TwoDImagesHaveAFlatZExtent) {
  VtkImage im = image3d(4, 3, 0, false);
  EXPECT_EQ(im.cells(), 12);
  const std::string doc = encode_vti(im);
  EXPECT_NE(doc.find("WholeExtent=\"0 4 0 3 0 0\""), std::string::npos);
}

TEST(Vtk, RawArraysHoldTheValuesBitForBit) {
  VtkImage im = image3d(5, 4, 3, false);
  const std::string doc = encode_vti(im);
  EXPECT_EQ(doubles(array_bytes(doc, "T")), im.arrays[0].values);
  const std::string solid = array_bytes(doc, "solid");
  EXPECT_EQ(std::vector<std::uint8_t>(solid.begin(), solid.end()), im.solid);
}

TEST(Vtk, CompressedArraysSpanSeveralBlocks) {
  if (!vtk_compression_available()) GTEST_SKIP() << "built without zlib";
  // 70 x 70 x 2 doubles = 78400 bytes: two full 32768-byte blocks and a partial one.
  VtkImage im = image3d(70, 70, 2, true);
  const std::string doc = encode_vti(im);
  EXPECT_NE(doc.find("compressor=\"vtkZLibDataCompressor\""), std::string::npos);
  EXPECT_EQ(doubles(array_bytes(doc, "T")), im.arrays[0].values);
  const std::string solid = array_bytes(doc, "solid");
  EXPECT_EQ(std::vector<std::uint8_t>(solid.begin(), solid.end()), im.solid);
  EXPECT_LT(doc.size(), 78400u + 9800u);  // smaller than the raw arrays
}

TEST(Vtk, MismatchedArraysAndEmptyGridsAreRefused) {
  VtkImage im = image3d(4, 3, 0, false);
  im.arrays[0].values.pop_back();
  EXPECT_THROW(encode_vti(im), std::logic_error);
  VtkImage empty;
  EXPECT_THROW(encode_vti(empty), CaseError);
}

TEST(Vtk, SnapshotsBecomeArraysWithVelocityAndSolid) {
  auto snap = [](const std::string& name, double base) {
    FieldSnapshot f;
    f.name = name;
    f.grid = Grid::make(3, 2, 1.5, 1.0);
    for (int c = 0; c < 6; ++c) f.values.push_back(base + c);
    f.solid = {0, 0, 1, 0, 0, 0};
    return f;
  };
  VtkImage im = vtk_image({snap("u", 10), snap("v", 20), snap("solid", 0)}, 1.25, 7);
  ASSERT_EQ(im.arrays.size(), 3u);  // u, v, velocity; solid only as the mask
  EXPECT_EQ(im.arrays[0].name, "u");
  EXPECT_EQ(im.arrays[2].name, "velocity");
  EXPECT_EQ(im.arrays[2].components, 3);
  EXPECT_EQ(im.arrays[2].values[3 * 4 + 0], 14);
  EXPECT_EQ(im.arrays[2].values[3 * 4 + 1], 24);
  EXPECT_EQ(im.arrays[2].values[3 * 4 + 2], 0);
  EXPECT_EQ(im.solid, (std::vector<std::uint8_t>{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(im.dx, 0.5);
  EXPECT_EQ(im.time, 1.25);
  EXPECT_EQ(im.step, 7);
}

TEST(Vtk, CollectionIsRewrittenWholeWithRelativePaths) {
  const fs::path dir = fs::temp_directory_path() / ("flowlua_pvd_" + std::to_string(getpid()));
  fs::remove_all(dir);
  PvdCollection pvd((dir / "run.pvd").string());
  pvd.add(0.5, (dir / "frames" / "a.vti").string());
  pvd.add(1.0, (dir / "frames" / "b.vti").string());
  pvd.add(1.5, (dir / "frames" / "a.vti").string());  // written again: one entry, new time
  std::ifstream in(dir / "run.pvd");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, pvd.document());
  EXPECT_EQ(pvd.size(), 2u);
  EXPECT_NE(text.find("timestep=\"1.5\" part=\"0\" file=\"frames/a.vti\""), std::string::npos);
  EXPECT_NE(text.find("timestep=\"1\" part=\"0\" file=\"frames/b.vti\""), std::string::npos);
  EXPECT_NE(text.find("</VTKFile>"), std::string::npos);
  // No temporary files left beside it.
  int files = 0;
  for (auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
  fs::remove_all(dir);
}
