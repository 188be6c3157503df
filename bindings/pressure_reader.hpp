// pressure = { ... }: the Poisson solver a case asks for (engine/linalg/), checked key
// by key, and the line --explain prints for it.
#pragma once
#include <string>

#include "case_reader.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

void read_pressure(const TableReader& top, CaseSpec& c);
std::string describe_pressure(const PressureControl& p);

}  // namespace flowlua::lua
