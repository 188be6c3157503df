// Kernel plans: which precompiled variant runs each stage of a model.
//
// When a case is built, the model forms a KernelKey from what the case is (model,
// backend, precision, scheme, obstacles, boundary families, pressure solver). Each
// stage of the model has a list of variants in a KernelRegistry; every variant
// names the keys it applies to and a rank. The plan takes, per stage, the
// highest-ranked variant that applies, or the one the case forces with
// `kernels = { <stage> = "<variant>" }` (an error when it does not apply). The
// lowest-ranked variant of every stage applies to every key: the general one.
//
// The registry holds names only; the solver maps each chosen name to a template
// instantiation compiled ahead of time for both backends and both precisions
// (docs/architecture.md, "Adding a kernel variant").
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/config.hpp"

namespace flowlua {

struct KernelKey {
  std::string model;      // "projection"
  std::string backend;    // "cpu" or "cuda"
  Precision precision = Precision::Double;
  std::string scheme;     // advection: "central", "hybrid"
  std::string pressure;   // pressure solver: "rbsor", "cg", ...
  bool obstacles = false; // any solid cell, or sides whose coupling varies along them
  bool periodic = false;  // any periodic side
  bool shapes = false;    // obstacles given by their exact shape (immersed bodies possible)
  int nx = 0, ny = 0;     // interior grid size: the line lengths of line solvers (linalg/tridiagonal)
  int ranks = 1;          // MPI ranks that split the grid into blocks (parallel/decomposition.hpp)

  std::string describe() const;  // "projection cuda double central, no obstacles, ..."
};

struct KernelVariant {
  std::string stage;    // "momentum", "pressure_sweep", ...
  std::string name;     // "central_open"
  std::string summary;  // one line for --explain
  std::string needs;    // what it needs, for error messages ("no obstacles")
  bool (*applies)(const KernelKey&);
  int rank;             // the highest applicable rank wins
};

class KernelPlan {
 public:
  struct Choice {
    const KernelVariant* variant;
    bool forced;
    std::string note;  // why a better variant did not apply, where the model says (printed)
  };
  const std::string& variant(const std::string& stage) const;  // name chosen for a stage
  std::string describe() const;                                // one line per stage
  std::map<std::string, Choice> stages;
  std::vector<std::string> order;                              // stages in step order
};

class KernelRegistry {
 public:
  void add(KernelVariant v);
  // Chooses every stage; `forced` maps stage -> variant name, or "general" ->
  // anything to take the general variant of every stage not named. Throws CaseError
  // for an unknown stage or variant, or a forced variant that does not apply.
  KernelPlan plan(const KernelKey& key, const std::map<std::string, std::string>& forced) const;
  std::vector<std::string> stages() const;
  std::vector<const KernelVariant*> variants(const std::string& stage) const;  // by rank, best first

 private:
  std::vector<KernelVariant> all_;
  std::vector<std::string> order_;
};

}  // namespace flowlua
