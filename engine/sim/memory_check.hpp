// A grid too large for the memory is refused before anything is allocated, with the
// bytes it needs: a failed allocation halfway through building a solver says less
// (std::bad_alloc, or the CUDA out-of-memory error) and may come after minutes of setup.
#pragma once
#include <cstddef>

#include "core/config.hpp"

namespace flowlua {

// The least a solver of `common` allocates: kArraysPerCell arrays of Real per cell
// (with the ghost ring) and a flag byte. The models hold 6 to 9 arrays and their
// Poisson solvers 0 to 5 more: 8 is a lower bound for every model and solver.
inline constexpr int kArraysPerCell = 8;
std::size_t bytes_needed(const CaseCommon& common);

// Memory this process can still take on the host: MemAvailable, capped by RLIMIT_AS.
std::size_t host_bytes_available();

// Throws CaseError when bytes_needed(common) exceeds what the backend it runs on has
// (the host for cpu, the device's free memory for cuda).
void check_memory(const CaseCommon& common);

}  // namespace flowlua
