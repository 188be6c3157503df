// The parts of a case table that mean something else (or only something) for
// model = "psi_omega": fluid (with heat transport and the nondimensional groups) and
// kernels. Called by case_reader.cpp once the model is known.
#pragma once
#include "case_reader.hpp"
#include "lua_table.hpp"

namespace flowlua::lua {

void read_fluid_psi_omega(const TableReader& top, CaseSpec& c);
void read_kernels_psi_omega(const TableReader& top, CaseSpec& c);

}  // namespace flowlua::lua
