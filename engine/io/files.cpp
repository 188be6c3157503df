#include "io/files.hpp"
#include "parallel/ranks.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace flowlua::io {

namespace fs = std::filesystem;

static std::runtime_error write_error(const std::string& path, const std::string& why) {
  return std::runtime_error("cannot write '" + path + "': " + why);
}

void make_parent_dirs(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  // Check the result too: what matters is a folder there, not what the call said.
  if (ec) throw write_error(path, "cannot create folder '" + parent.string() + "': " + ec.message());
  if (!fs::is_directory(parent, ec))
    throw write_error(path, "'" + parent.string() + "' is not a folder");
}

void write_file_atomic(const std::string& path, const std::string& bytes) {
  // On several MPI ranks every rank runs the case and holds the same (gathered)
  // output; the root writes it (docs/mpi.md).
  if (!ranks::root()) return;
  write_rank_file_atomic(path, bytes);
}

void write_rank_file_atomic(const std::string& path, const std::string& bytes) {
  commit_temp_file(write_temp_file(path, bytes), path);
}

std::string write_temp_file(const std::string& path, const std::string& bytes) {
  // pid plus a counter keeps two writers (processes, threads or ranks) off each
  // other's temporary file; the same folder keeps the rename on one file system.
  static std::atomic<unsigned long> counter{0};
  const std::string tmp =
      path + ".tmp." + std::to_string(long(::getpid())) + "." + std::to_string(counter++);

  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw write_error(path, std::strerror(errno));

  int err = 0;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) err = errno;
  // fflush and fclose are where a full disk usually shows up: check both.
  if (!err && std::fflush(f) != 0) err = errno;
  if (std::fclose(f) != 0 && !err) err = errno;
  if (err) {
    std::remove(tmp.c_str());
    throw write_error(path, std::strerror(err));
  }
  return tmp;
}

void commit_temp_file(const std::string& tmp, const std::string& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw write_error(path, std::strerror(err));
  }
}

}  // namespace flowlua::io
