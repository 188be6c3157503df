// One VTK image written by several MPI ranks as a parallel set (docs/mpi.md, "Files"):
// each rank writes the cells of its block as a piece, a .vti whose Extent sits inside
// the whole image's WholeExtent with the whole image's Origin and Spacing, and rank 0
// writes the .pvti that lists the pieces and their arrays once every piece is on disk
// (vtkXMLPImageDataReader, ParaView). Only cell data is written: neighbouring pieces
// share the points on their common side and no cell twice, so the set shows no seam
// and needs no ghost cells (GhostLevel 0).
//
// Names: "dir/flow_000100.vti" becomes "dir/flow_000100.pvti" and the pieces
// "dir/flow_000100/flow_000100_<rank>.vti". One rank writes the .vti as always.
#pragma once
#include <string>
#include <vector>

#include "io/vtk.hpp"
#include "parallel/decomposition.hpp"

namespace flowlua::io {

struct VtkBlock {
  int i0 = 0, j0 = 0, nx = 0, ny = 0;  // cells (i0, j0) .. (i0 + nx - 1, j0 + ny - 1)
};

// "x/flow_1.vti" -> "x/flow_1.pvti"; its piece of rank r -> "x/flow_1/flow_1_<r>.vti".
std::string pvti_path(const std::string& vti_path);
std::string vti_piece_path(const std::string& vti_path, int rank);

// The cells of block `b` of a whole 2D image, as a piece of it.
VtkImage vtk_piece(const VtkImage& whole, const VtkBlock& b);
// The .pvti document: the whole image's extent, origin, spacing and arrays, and the
// pieces (blocks[r] in file sources[r], relative to the .pvti's folder).
std::string encode_pvti(const VtkImage& whole, const std::vector<VtkBlock>& blocks,
                        const std::vector<std::string>& sources);

// Collective: `whole` (the same image on every rank, gathered) written as the parallel
// set of `block`'s decomposition, one piece a rank; returns the .pvti's path. On one
// rank, for a 3D image, or when the blocks do not cover the ranks, the root writes
// `path` (a .vti) as write_vti does and that is returned. A failure on any rank
// throws on every rank; the .pvti is only written when every piece was.
std::string write_vtk_set(const std::string& path, const VtkImage& whole, const ranks::Subdomain& block);

}  // namespace flowlua::io
