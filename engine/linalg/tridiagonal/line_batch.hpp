// A batch of independent tridiagonal systems laid along the lines of a 2D field
// (seed 001: every grid line of an ADI half step is one system).
//
// Row k of line l reads  a_k x_{k-1} + b_k x_k + c_k x_{k+1} = d_k,  k = 0..n-1.
// Without periodicity a_0 and c_{n-1} are ignored (taken as 0); a cyclic system
// couples x_{n-1} into row 0 through a_0 and x_0 into row n-1 through c_{n-1}.
//
// Unknown k of line l lives at  offset + l * line_stride + k * elem_stride  in the
// field. Lines along x (LineDir::X) have elem_stride 1: a line is contiguous and
// neighbouring lines are a row pitch apart. Lines along y have line_stride 1: the
// unknowns of neighbouring lines are neighbours in memory ("interleaved", the
// layout one thread per line reads coalesced).
#pragma once
#include <string>

#include "core/hd.hpp"

namespace flowlua::tridiag {

enum class LineDir { X, Y };

struct LineBatch {
  int n = 0;              // unknowns per line
  int count = 0;          // lines
  long elem_stride = 1;   // between unknowns k and k+1 of a line
  long line_stride = 1;   // between lines l and l+1
  long offset = 0;        // unknown 0 of line 0

  FL_HD long index(int line, int k) const { return offset + line * line_stride + k * elem_stride; }
  bool along_x() const { return elem_stride == 1; }
};

// The lines of an nx x ny block of a field whose rows are `pitch` apart, starting
// at `offset`: along x, ny lines of nx unknowns; along y, nx lines of ny unknowns.
inline LineBatch field_lines(LineDir dir, int nx, int ny, long pitch, long offset = 0) {
  LineBatch b;
  b.offset = offset;
  if (dir == LineDir::X) {
    b.n = nx, b.count = ny, b.elem_stride = 1, b.line_stride = pitch;
  } else {
    b.n = ny, b.count = nx, b.elem_stride = pitch, b.line_stride = 1;
  }
  return b;
}

// The algorithms. Thomas is the seed's PTA (one thread per line, forward
// elimination and back substitution); thomas_tiled is the same arithmetic for lines
// along the contiguous direction, reading and writing 32 x 32 tiles through shared
// memory so that every load is coalesced; cr, pcr and pcr_thomas solve one line per
// block in shared memory (cyclic reduction, parallel cyclic reduction, and PCR steps
// until there are as many independent subsystems as threads, then Thomas on each);
// partitioned cuts each line into chunks of 32 rows, one thread per chunk, and joins
// them by a Thomas solve of the chunks' interface unknowns (partitioned.hpp).
enum class Algorithm { Thomas, ThomasTiled, CR, PCR, PCRThomas, Partitioned };
constexpr Algorithm kAllAlgorithms[] = {Algorithm::Thomas, Algorithm::ThomasTiled, Algorithm::CR,
                                        Algorithm::PCR,    Algorithm::PCRThomas,   Algorithm::Partitioned};

inline const char* algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::Thomas: return "thomas";
    case Algorithm::ThomasTiled: return "thomas_tiled";
    case Algorithm::CR: return "cr";
    case Algorithm::PCR: return "pcr";
    case Algorithm::PCRThomas: return "pcr_thomas";
    case Algorithm::Partitioned: return "partitioned";
  }
  return "?";
}

// The batched solve on a backend: LineSolver<Exec>::solve<Real>(alg, batch, rows,
// scratch), specialized in solve_cpu.hpp (CpuExec) and solve_cuda.cuh (CudaExec), so
// that a model templated on the backend solves its lines without naming it.
template <class Exec>
struct LineSolver;

// Scratch (in Real elements) that a solve of this batch needs: Thomas keeps c' and d'
// per unknown, partitioned 7 numbers per chunk of 32 rows (the larger of the two, so
// that any algorithm fits); a cyclic solve keeps two more solutions (Sherman-Morrison)
// after that.
constexpr int kChunk = 32;  // rows per chunk of the partitioned algorithm
inline int chunks(int n) { return (n + kChunk - 1) / kChunk; }
inline long solve_scratch(const LineBatch& b) {
  const long nc = long(b.n) * b.count, chunks = 7L * tridiag::chunks(b.n) * b.count;
  return nc * 2 > chunks ? nc * 2 : chunks;
}
inline long scratch_size(const LineBatch& b, bool cyclic) {
  return solve_scratch(b) + (cyclic ? 2L * b.n * b.count : 0);
}

}  // namespace flowlua::tridiag
