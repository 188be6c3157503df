// The projection model's reader (bindings/projection_reader.cpp): what it makes of a case.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "models/projection/projection_config.hpp"

namespace flowlua::lua {

// What the projection reader made of a case (tests read `config`).
class ProjectionCase final : public ModelCase {
 public:
  ProjectionConfig config;
  std::string advection = "central";  // as the case names it, for the summary

  std::unique_ptr<Solver> build(const CaseCommon& common) const override;
  std::string summary(const CaseSpec& spec) const override;
  std::optional<double> constant(const std::string& name) const override;
  std::vector<std::string> constant_names() const override;
};

}  // namespace flowlua::lua
