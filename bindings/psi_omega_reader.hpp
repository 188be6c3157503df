// The psi_omega model's reader (bindings/psi_omega_reader.cpp): what it makes of a case.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "models/psi_omega/psi_omega_config.hpp"

namespace flowlua::lua {

// What the psi_omega reader made of a case (tests read `config`).
class PsiOmegaCase final : public ModelCase {
 public:
  PsiOmegaConfig config;

  std::unique_ptr<Solver> build(const CaseCommon& common) const override;
  std::string summary(const CaseSpec& spec) const override;
  std::optional<double> constant(const std::string& name) const override;
  std::vector<std::string> constant_names() const override;
};

}  // namespace flowlua::lua
