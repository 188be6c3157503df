// CSV tables for time series and parameter studies.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace flowlua::io {

// Each row() rewrites the whole file through write_file_atomic, so the file on disk
// is always complete (header plus every row so far) even if the run dies mid-way.
// Meant for a modest number of rows (samples, study points), not per-cell dumps.
class CsvWriter {
 public:
  explicit CsvWriter(std::string path);

  // Values are already formatted text (see format_number). The first row fixes the
  // header, in its key order. Later rows may leave columns out (empty cell); a key
  // not in the header, or a key given twice, throws std::runtime_error naming the key
  // and the header, and the row is not added. Write failures throw std::runtime_error
  // ("cannot write '<path>': ...") and also leave the table unchanged.
  void row(const std::vector<std::pair<std::string, std::string>>& cells);

  const std::string& path() const { return path_; }
  const std::vector<std::string>& header() const { return header_; }
  std::size_t rows() const { return rows_; }

  // Shortest "%.Ng" text (N = 15, 16 or 17) that parses back to the same double,
  // independent of the C locale: 0.1 -> "0.1", 3 -> "3", 1e-300 -> "1e-300".
  // NaN -> "nan", infinities -> "inf" / "-inf".
  static std::string format_number(double v);

  // RFC 4180 quoting: a field holding a comma, quote, CR or LF is put in double
  // quotes with inner quotes doubled; anything else is written as is.
  static std::string quote(const std::string& field);

 private:
  std::string path_;
  std::vector<std::string> header_;
  std::string text_;  // the file so far
  std::size_t rows_ = 0;
};

}  // namespace flowlua::io
