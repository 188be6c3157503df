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
// folders: call make_parent_dirs first. On several MPI ranks only the root writes
// (every rank holds the same gathered output); the others return at once.
void write_file_atomic(const std::string& path, const std::string& bytes);

// The same on whichever rank calls it: a file of this rank's own (a piece of a
// parallel VTK set or of a checkpoint, docs/mpi.md).
void write_rank_file_atomic(const std::string& path, const std::string& bytes);

// The two halves of write_rank_file_atomic, for a set of files that must appear
// together (a checkpoint's pieces: every rank writes its temporary file, the ranks
// agree that all did, then each renames its own): write_temp_file returns the
// temporary name beside `path`; commit_temp_file renames it over `path`. Both throw
// std::runtime_error("cannot write '<path>': ...") and remove the temporary on failure.
std::string write_temp_file(const std::string& path, const std::string& bytes);
void commit_temp_file(const std::string& tmp, const std::string& path);

}  // namespace flowlua::io
