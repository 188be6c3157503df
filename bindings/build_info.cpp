#include "build_info.hpp"

#include <fftw3.h>
#include <lua.hpp>

#ifdef FLOWLUA_HAVE_HDF5
#include <hdf5.h>
#endif
#ifdef FLOWLUA_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "install_paths.hpp"
#include "io/vtk.hpp"
#include "parallel/ranks.hpp"
#include "sim/solver.hpp"

namespace flowlua::lua {

std::string build_info() {
  std::string s = std::string("flowlua ") + FLOWLUA_VERSION + "\n";
#ifdef FLOWLUA_HAVE_CUDA
  s += std::string("  CUDA backend: on (architectures ") + FLOWLUA_CUDA_ARCHS + ", CUDA runtime " +
       std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10) + ")\n";
  std::string why;
  s += cuda_available(&why) ? "  CUDA device: available\n" : "  CUDA device: not available (" + why + ")\n";
#else
  s += "  CUDA backend: off (CPU backend only)\n";
#endif
  s += "  CPU backend: on (OpenMP)\n";
  s += "  precisions: float, double\n";
  s += std::string("  Lua: ") + LUA_RELEASE + "\n";
  s += std::string("  FFTW: ") + fftw_version + "\n";
  s += std::string("  zlib: ") + (io::vtk_compression_available() ? io::vtk_zlib_version() : "not linked (VTK files uncompressed)") + "\n";
#ifdef FLOWLUA_HAVE_HDF5
  unsigned maj = 0, min = 0, rel = 0;
  H5get_libversion(&maj, &min, &rel);
  s += "  HDF5: " + std::to_string(maj) + "." + std::to_string(min) + "." + std::to_string(rel) + "\n";
#else
  s += "  HDF5: not linked (no checkpoints)\n";
#endif
  s += "  MPI: " + ranks::library() + (ranks::library() == "no MPI" ? " (one rank only)" : " (mpirun -np N: docs/mpi.md)") + "\n";
  s += "  Lua modules: " + scripts_dir() + "\n";
  return s;
}

}  // namespace flowlua::lua
