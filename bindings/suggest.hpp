// "Did you mean ...?" for misspelt keys, names and options.
#pragma once
#include <string>
#include <vector>

namespace flowlua::lua {

// Edit distance (insertions, deletions, substitutions, adjacent transpositions).
int edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `word` when it is close enough to be a likely typo
// (case-insensitive; distance <= max(1, len/3), or a prefix match); "" otherwise.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// "; did you mean 'nu'?" when a close candidate exists, else "; allowed: a, b, c".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates);

// A name as it appears in messages: at most 48 characters, control bytes shown as '?'.
std::string clip(const std::string& name);

// "a, b, c" (each quoted with ' when `quote`).
std::string join_names(const std::vector<std::string>& names, bool quote = false);

}  // namespace flowlua::lua
