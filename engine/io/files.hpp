// Writing output files so that a reader (a plot script, a second run, a person
// watching the folder) never sees half of one.
#pragma once
#include <string>

namespace flowlua::io {

// Creates the folders above `path` (like mkdir -p of its parent). Throws
// std::runtime_error("cannot write '<path>': ...") when they cannot be made.
void make_parent_dirs(const std::string& path);

// Writes `bytes` to "<path>.tmp.<pid>.<n>" in the same folder, checks every write,
// then renames it over `path` (atomic on POSIX within one file system). On failure
// the temporary file is removed and std::runtime_error("cannot write '<path>': <reason>")
// is thrown; the old content of `path`, if any, is left as it was. Does not create
// folders: call make_parent_dirs first.
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace flowlua::io
