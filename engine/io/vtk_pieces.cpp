#include "io/vtk_pieces.hpp"

#include <filesystem>
#include <stdexcept>

#include "io/files.hpp"
#include "io/vtk_text.hpp"
#include "parallel/agree.hpp"
#include "parallel/ranks.hpp"

namespace flowlua::io {

namespace fs = std::filesystem;
using vtk_text::number;
using vtk_text::xml_escape;

namespace {

std::string stem_of(const std::string& vti_path) {
  return vti_path.size() > 4 ? vti_path.substr(0, vti_path.size() - 4) : vti_path;  // without ".vti"
}

std::string extent(const VtkBlock& b) {
  return std::to_string(b.i0) + " " + std::to_string(b.i0 + b.nx) + " " + std::to_string(b.j0) + " " +
         std::to_string(b.j0 + b.ny) + " 0 0";
}

}  // namespace

std::string pvti_path(const std::string& vti_path) { return stem_of(vti_path) + ".pvti"; }

std::string vti_piece_path(const std::string& vti_path, int rank) {
  const fs::path stem(stem_of(vti_path));
  return (stem / (stem.filename().string() + "_" + std::to_string(rank) + ".vti")).string();
}

VtkImage vtk_piece(const VtkImage& whole, const VtkBlock& b) {
  if (whole.nz > 0) throw std::logic_error("VTK pieces: 2D images only");
  if (b.i0 < 0 || b.j0 < 0 || b.nx <= 0 || b.ny <= 0 || b.i0 + b.nx > whole.nx || b.j0 + b.ny > whole.ny)
    throw std::logic_error("VTK pieces: the block is not inside the image");
  VtkImage p = whole;
  p.nx = b.nx;
  p.ny = b.ny;
  p.x0 = b.i0;
  p.y0 = b.j0;
  auto cut = [&](const auto& in, auto& out, int comps) {
    out.assign(std::size_t(b.nx) * b.ny * comps, {});
    std::size_t k = 0;
    for (int j = b.j0; j < b.j0 + b.ny; ++j)
      for (int i = b.i0; i < b.i0 + b.nx; ++i)
        for (int c = 0; c < comps; ++c) out[k++] = in[(std::size_t(i) + std::size_t(j) * whole.nx) * comps + c];
  };
  for (std::size_t a = 0; a < whole.arrays.size(); ++a)
    cut(whole.arrays[a].values, p.arrays[a].values, whole.arrays[a].components);
  if (!whole.solid.empty()) cut(whole.solid, p.solid, 1);
  return p;
}

std::string encode_pvti(const VtkImage& im, const std::vector<VtkBlock>& blocks,
                        const std::vector<std::string>& sources) {
  std::string xml = "<?xml version=\"1.0\"?>\n";
  xml += "<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  xml += "  <PImageData WholeExtent=\"0 " + std::to_string(im.nx) + " 0 " + std::to_string(im.ny) +
         " 0 0\" GhostLevel=\"0\" Origin=\"" + number(im.ox) + " " + number(im.oy) + " " + number(im.oz) +
         "\" Spacing=\"" + number(im.dx) + " " + number(im.dy) + " " + number(im.dx) + "\">\n";
  std::string scalars, vectors;
  for (const auto& a : im.arrays) {
    if (a.components == 1 && scalars.empty()) scalars = a.name;
    if (a.components == 3 && vectors.empty()) vectors = a.name;
  }
  xml += "    <PCellData";
  if (!scalars.empty()) xml += " Scalars=\"" + xml_escape(scalars) + "\"";
  if (!vectors.empty()) xml += " Vectors=\"" + xml_escape(vectors) + "\"";
  xml += ">\n";
  for (const auto& a : im.arrays) {
    xml += "      <PDataArray type=\"Float64\" Name=\"" + xml_escape(a.name) + "\"";
    if (a.components != 1) xml += " NumberOfComponents=\"" + std::to_string(a.components) + "\"";
    xml += "/>\n";
  }
  if (!im.solid.empty()) xml += "      <PDataArray type=\"UInt8\" Name=\"solid\"/>\n";
  xml += "    </PCellData>\n";
  for (std::size_t r = 0; r < blocks.size(); ++r)
    xml += "    <Piece Extent=\"" + extent(blocks[r]) + "\" Source=\"" + xml_escape(sources[r]) + "\"/>\n";
  xml += "  </PImageData>\n</VTKFile>\n";
  return xml;
}

std::string write_vtk_set(const std::string& path, const VtkImage& whole, const ranks::Subdomain& block) {
  const ranks::Decomposition& d = block.decomposition;
  if (!ranks::several() || whole.nz > 0 || d.px * d.py != ranks::size() || block.gnx != whole.nx ||
      block.gny != whole.ny) {
    write_vti(path, whole);
    return path;
  }
  const std::string pvti = pvti_path(path), what = "cannot write '" + pvti + "'";
  const int n = ranks::size();
  std::vector<VtkBlock> blocks(static_cast<std::size_t>(n));
  std::vector<std::string> sources(static_cast<std::size_t>(n));
  const fs::path folder = fs::path(pvti).parent_path();
  for (int r = 0; r < n; ++r) {
    const ranks::Subdomain s = ranks::subdomain(d, whole.nx, whole.ny, r);
    blocks[r] = {s.i0, s.j0, s.nx, s.ny};
    sources[r] = fs::path(vti_piece_path(path, r)).lexically_proximate(folder.empty() ? fs::path(".") : folder)
                     .generic_string();
  }
  const std::string piece = vti_piece_path(path, ranks::rank());
  std::string error;
  // The root makes the folders (the pieces' too) before the others write into them.
  if (ranks::root()) try {
      make_parent_dirs(piece);
    } catch (const std::exception& e) {
      error = e.what();
    }
  ranks::agree(error, what);
  std::string bytes;
  try {
    bytes = encode_vti(vtk_piece(whole, blocks[ranks::rank()]));
  } catch (const std::exception& e) {
    error = "cannot write '" + piece + "': " + e.what();
  }
  if (error.empty()) try {
      write_rank_file_atomic(piece, bytes);
    } catch (const std::exception& e) {
      error = e.what();
    }
  ranks::agree(error, what);  // every piece is on disk before the .pvti names it
  if (ranks::root()) try {
      write_rank_file_atomic(pvti, encode_pvti(whole, blocks, sources));
    } catch (const std::exception& e) {
      error = e.what();
    }
  ranks::agree(error, what);
  return pvti;
}

}  // namespace flowlua::io
