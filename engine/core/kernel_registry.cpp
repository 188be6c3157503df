#include "core/kernel_registry.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace flowlua {

std::string KernelKey::describe() const {
  std::ostringstream s;
  s << model << ", " << backend << ", " << precision_name(precision) << ", " << scheme << " advection, "
    << pressure << " pressure, " << (obstacles ? "obstacles" : "no obstacles")
    << (shapes ? ", bodies of exact shape" : "") << (periodic ? ", periodic sides" : "")
    << (ranks > 1 ? ", " + std::to_string(ranks) + " ranks" : "");
  return s.str();
}

const std::string& KernelPlan::variant(const std::string& stage) const {
  auto it = stages.find(stage);
  if (it == stages.end()) throw std::logic_error("kernel plan has no stage '" + stage + "'");
  return it->second.variant->name;
}

std::string KernelPlan::describe() const {
  std::ostringstream s;
  for (const auto& st : order) {
    const Choice& c = stages.at(st);
    s << "  " << st << std::string(st.size() < 15 ? 15 - st.size() : 1, ' ') << c.variant->name
      << (c.forced ? " (forced)" : "") << ": " << c.variant->summary << (c.note.empty() ? "" : " [" + c.note + "]")
      << "\n";
  }
  return s.str();
}

void KernelRegistry::add(KernelVariant v) {
  if (std::find(order_.begin(), order_.end(), v.stage) == order_.end()) order_.push_back(v.stage);
  all_.push_back(std::move(v));
}

std::vector<std::string> KernelRegistry::stages() const { return order_; }

std::vector<const KernelVariant*> KernelRegistry::variants(const std::string& stage) const {
  std::vector<const KernelVariant*> out;
  for (const auto& v : all_)
    if (v.stage == stage) out.push_back(&v);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->rank > b->rank; });
  return out;
}

namespace {
std::string names(const std::vector<const KernelVariant*>& vs) {
  std::string s;
  for (auto* v : vs) s += (s.empty() ? "'" : ", '") + v->name + "'";
  return s;
}
}  // namespace

KernelPlan KernelRegistry::plan(const KernelKey& key, const std::map<std::string, std::string>& forced) const {
  bool general = false;
  for (const auto& [stage, name] : forced) {
    if (stage == "general") { general = true; continue; }
    if (std::find(order_.begin(), order_.end(), stage) == order_.end()) {
      std::string all;
      for (const auto& s : order_) all += (all.empty() ? "'" : ", '") + s + "'";
      throw CaseError("kernels." + stage + ": the " + key.model + " model has no stage '" + stage +
                      "' (stages: " + all + ")");
    }
  }
  KernelPlan p;
  p.order = order_;
  for (const auto& stage : order_) {
    const auto vs = variants(stage);
    auto f = forced.find(stage);
    if (f != forced.end()) {
      auto it = std::find_if(vs.begin(), vs.end(), [&](auto* v) { return v->name == f->second; });
      if (it == vs.end())
        throw CaseError("kernels." + stage + " = '" + f->second + "' is not a variant of this stage (variants: " +
                        names(vs) + ")");
      if (!(*it)->applies(key))
        throw CaseError("kernels." + stage + " = '" + f->second + "' needs " + (*it)->needs +
                        ", which this case (" + key.describe() + ") does not have");
      p.stages[stage] = {*it, true, ""};
      continue;
    }
    if (general) {
      p.stages[stage] = {vs.back(), true, ""};
      continue;
    }
    for (auto* v : vs)
      if (v->applies(key)) {
        p.stages[stage] = {v, false, ""};
        break;
      }
  }
  return p;
}

}  // namespace flowlua
