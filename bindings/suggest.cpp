#include "suggest.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace flowlua::lua {

static std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance: Levenshtein plus adjacent transpositions.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = int(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = int(j);
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > 64) return "";
  std::string w = lower(word);
  std::string best;
  int best_d = 1 << 30;
  for (const std::string& c : candidates) {
    int d = edit_distance(w, lower(c));
    if (d < best_d) { best_d = d; best = c; }
  }
  if (best.empty()) return "";
  int limit = std::max<int>(1, int(std::max(word.size(), best.size()) / 3));
  if (best_d <= limit) return best;
  // A prefix of a longer name ("omeg" for "omega") or a longer spelling of a name.
  for (const std::string& c : candidates) {
    std::string lc = lower(c);
    if (std::min(w.size(), lc.size()) >= 3 && (lc.rfind(w, 0) == 0 || w.rfind(lc, 0) == 0))
      return c;
  }
  return "";
}

std::string clip(const std::string& name) {
  std::string out = name.substr(0, 48);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 32 || c == 127) c = '?';
  if (name.size() > 48) out += "...";
  return out;
}

std::string join_names(const std::vector<std::string>& names, bool quote) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    if (quote) out += "'";
    out += names[i];
    if (quote) out += "'";
  }
  return out;
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best = closest_match(word, candidates);
  if (!best.empty()) return "; did you mean '" + best + "'?";
  if (candidates.empty()) return "";
  return "; allowed: " + join_names(candidates);
}

}  // namespace flowlua::lua
