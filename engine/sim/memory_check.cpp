#include "sim/memory_check.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "sim/solver.hpp"

namespace flowlua {

std::size_t bytes_needed(const CaseCommon& c) {
  const std::size_t cells =
      c.dims == 3 ? c.grid3.size() : std::size_t(c.grid.nx + 2) * std::size_t(c.grid.ny + 2);
  const std::size_t real = c.precision == Precision::Float ? 4 : 8;
  return cells * (kArraysPerCell * real + 1);
}

std::size_t host_bytes_available() {
  std::size_t avail = std::numeric_limits<std::size_t>::max();
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") avail = kb * 1024;
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    std::size_t used = 0, pages = 0;
    std::ifstream statm("/proc/self/statm");
    if (statm >> pages) used = pages * 4096;
    const std::size_t left = as.rlim_cur > used ? as.rlim_cur - used : 0;
    if (left < avail) avail = left;
  }
  return avail;
}

static std::string gib(std::size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g GiB (%zu bytes)", double(bytes) / (1024.0 * 1024 * 1024), bytes);
  return buf;
}

void check_memory(const CaseCommon& c) {
  const std::size_t need = bytes_needed(c);
  const bool cuda = c.backend == BackendChoice::Cuda || (c.backend == BackendChoice::Auto && cuda_available());
  std::size_t have = 0;
  std::string where;
  if (cuda) {
    if (!cuda_free_memory(&have)) return;  // the backend reports its own error
    where = "free on the GPU";
  } else {
    have = host_bytes_available();
    where = "available on the host";
  }
  if (need <= have) return;
  const std::string dims = c.dims == 3 ? std::to_string(c.grid3.nx) + " x " + std::to_string(c.grid3.ny) + " x " +
                                             std::to_string(c.grid3.nz)
                                       : std::to_string(c.grid.nx) + " x " + std::to_string(c.grid.ny);
  throw CaseError("the grid " + dims + " needs at least " +
                  gib(need) + " (" + std::to_string(kArraysPerCell) + " arrays of " +
                  (c.precision == Precision::Float ? "float" : "double") + " per cell with the ghost " + (c.dims == 3 ? "layer" : "ring") + ") and " +
                  gib(have) + " is " + where + ": use a smaller grid" +
                  (c.precision == Precision::Float ? "" : ", or precision = \"float\" (half the memory)"));
}

}  // namespace flowlua
