// Where flowlua finds the Lua modules it ships (scripts/: flowlua.ghia, ...): beside
// the executable when installed, in the source tree when run from the build folder.
#pragma once
#include <string>

namespace flowlua::lua {

// <folder of the executable>/FLOWLUA_SCRIPTS_RELATIVE (an installed flowlua:
// P/bin/flowlua -> P/share/flowlua/scripts) when that folder holds the modules,
// otherwise FLOWLUA_SCRIPTS_DIR (the source tree this binary was built from).
std::string scripts_dir();

}  // namespace flowlua::lua
