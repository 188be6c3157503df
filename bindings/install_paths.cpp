#include "install_paths.hpp"

#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace flowlua::lua {

std::string scripts_dir() {
  std::error_code ec;
  const fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = (exe.parent_path() / FLOWLUA_SCRIPTS_RELATIVE).lexically_normal();
    if (fs::is_directory(beside / "flowlua", ec)) return beside.string();
  }
  return FLOWLUA_SCRIPTS_DIR;
}

}  // namespace flowlua::lua
