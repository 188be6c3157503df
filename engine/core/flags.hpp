// Cell flags: which cells are fluid, and how each fluid cell's pressure couples to
// its four neighbours. Built once on the host from the obstacle mask and the side
// conditions, then read by every kernel, so stencils carry no boundary branches
// beyond a table lookup.
//
// Pressure coupling per direction (2 bits): the neighbour is fluid (Coupled), a wall
// or obstacle with dp/dn = 0 (Neumann, Griebel's epsilon flags), or an outflow face
// where p = 0 (Dirichlet: the ghost value is -p, so the diagonal gains 2/h^2).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/boundary.hpp"
#include "core/grid.hpp"
#include "core/grid3.hpp"
#include "core/hd.hpp"

namespace flowlua {

using CellFlags = std::uint16_t;

namespace flag {
constexpr CellFlags kFluid = 1u << 0;
enum Coupling : unsigned { Coupled = 0, Neumann = 1, Dirichlet = 2 };
// +x, -x, +y, -y, and in 3D +z (front), -z (back).
enum Dir : unsigned { East = 0, West = 1, North = 2, South = 3, Front = 4, Back = 5 };
constexpr unsigned shift(Dir d) { return 1u + 2u * unsigned(d); }
}  // namespace flag

FL_HD bool is_fluid(CellFlags f) { return (f & flag::kFluid) != 0; }
FL_HD unsigned coupling(CellFlags f, flag::Dir d) { return (f >> flag::shift(d)) & 3u; }

// Neighbour indices with periodic wrap. With periodic x the east neighbour of cell
// nx is cell 1; otherwise it is the ghost nx + 1.
struct Neighbours {
  int nx, ny;
  bool periodic_x, periodic_y;
  FL_HD int east(int i) const { return (periodic_x && i == nx) ? 1 : i + 1; }
  FL_HD int west(int i) const { return (periodic_x && i == 1) ? nx : i - 1; }
  FL_HD int north(int j) const { return (periodic_y && j == ny) ? 1 : j + 1; }
  FL_HD int south(int j) const { return (periodic_y && j == 1) ? ny : j - 1; }
};

// Where a kernel gets a cell's flag word. FlagArray reads the array built by
// build_flags; OpenDomainFlags computes the same word from the position, for
// obstacle-free domains (every interior cell fluid, each side one coupling), so the
// obstacle-free kernel variants move no flag bytes. Both give 0 (not fluid) for
// ghost cells. open_domain_flags() checks that the two agree before a variant
// that uses OpenDomainFlags is chosen.
struct FlagArray {
  const CellFlags* flags;
  int stride;
  FL_HD CellFlags at(int i, int j) const { return flags[std::size_t(j) * stride + i]; }
};

struct OpenDomainFlags {
  int nx, ny;
  CellFlags east, west, north, south;  // coupling bits of each side, already shifted
  FL_HD CellFlags at(int i, int j) const {
    if (i < 1 || i > nx || j < 1 || j > ny) return 0;
    CellFlags f = flag::kFluid;
    if (i == nx) f |= east;
    if (i == 1) f |= west;
    if (j == ny) f |= north;
    if (j == 1) f |= south;
    return f;
  }
};

// The 3D neighbours, with periodic wrap in each direction (front = +z, back = -z).
struct Neighbours3 {
  int nx, ny, nz;
  bool periodic_x, periodic_y, periodic_z;
  FL_HD int east(int i) const { return (periodic_x && i == nx) ? 1 : i + 1; }
  FL_HD int west(int i) const { return (periodic_x && i == 1) ? nx : i - 1; }
  FL_HD int north(int j) const { return (periodic_y && j == ny) ? 1 : j + 1; }
  FL_HD int south(int j) const { return (periodic_y && j == 1) ? ny : j - 1; }
  FL_HD int front(int k) const { return (periodic_z && k == nz) ? 1 : k + 1; }
  FL_HD int back(int k) const { return (periodic_z && k == 1) ? nz : k - 1; }
};

struct FlagArray3 {
  const CellFlags* flags;
  int stride;
  std::size_t plane;
  FL_HD CellFlags at(int i, int j, int k) const { return flags[std::size_t(k) * plane + std::size_t(j) * stride + i]; }
};

struct FlagReport {
  std::vector<CellFlags> flags;  // grid.size() entries, ghosts included (never fluid)
  int cells_opened = 0;          // obstacle cells turned to fluid by the thin-wall rule
  int cells_closed = 0;          // fluid cells with no fluid neighbour turned solid
  long fluid_cells = 0;
};

// Builds flags from the solid mask (nx*ny, may be empty) and the sides.
//
// NaSt2D's boundary rules (Griebel et al. 1998, sec. 3.1.4) cannot give an obstacle
// cell with fluid on two opposite sides one value; such cells are opened (made fluid),
// repeatedly, until none is left. Fluid cells left with no fluid neighbour are closed.
// Both counts are reported so the host can tell the user.
FlagReport build_flags(const Grid& grid, const Boundaries& sides, std::vector<std::uint8_t> solid);

// The position-computed flags of an obstacle-free domain, or false when `flags`
// (from build_flags) has obstacle cells or is not reproduced cell for cell.
bool open_domain_flags(const Grid& grid, const FlagReport& flags, OpenDomainFlags& out);

// The same rules in 3D (flags3.cpp): solid mask nx*ny*nz (i fastest, may be empty),
// six sides (Boundaries3, indexed by Side), flags in the Grid3 layout. An obstacle
// cell with fluid on two opposite sides in any direction is opened.
FlagReport build_flags3(const Grid3& grid, const Boundaries3& sides, std::vector<std::uint8_t> solid);

}  // namespace flowlua
