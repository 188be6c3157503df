// What `flowlua --version` prints: the version, the backends and precisions built in,
// the CUDA architectures, and the versions of the libraries linked.
#pragma once
#include <string>

namespace flowlua::lua {

std::string build_info();

}  // namespace flowlua::lua
