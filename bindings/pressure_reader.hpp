// pressure = { ... }: the Poisson solver a case asks for (engine/linalg/), checked key
// by key, and the line --explain prints for it.
#pragma once
#include <string>
#include <vector>

#include "linalg/pressure_control.hpp"

#include "case_reader.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

// Which solvers a model's Poisson problem admits: empty = all; `why_not` completes
// "pressure.solver = 'x' ..." for the others.
struct PoissonChoices {
  std::vector<std::string> allowed;
  std::string why_not;
  bool* mixed = nullptr;  // where pressure.mixed goes, when the model offers it (projection)
};
// pressure = { ... } into `p`, whose values (the model's defaults) stand for absent keys.
void read_pressure(const TableReader& top, PressureControl& p, const PoissonChoices& choices = {});
std::string describe_pressure(const PressureControl& p);

}  // namespace flowlua::lua
