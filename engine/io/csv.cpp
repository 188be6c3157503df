#include "io/csv.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "io/files.hpp"

namespace flowlua::io {

CsvWriter::CsvWriter(std::string path) : path_(std::move(path)) {}

static std::string join_header(const std::vector<std::string>& header) {
  std::string s;
  for (std::size_t k = 0; k < header.size(); ++k) s += (k ? ", " : "") + header[k];
  return s;
}

void CsvWriter::row(const std::vector<std::pair<std::string, std::string>>& cells) {
  std::vector<std::string> header = header_;
  std::string text = text_;

  if (header.empty()) {
    if (cells.empty()) throw std::runtime_error("CSV '" + path_ + "': the first row has no columns");
    for (const auto& [key, value] : cells) {
      for (const auto& h : header)
        if (h == key) throw std::runtime_error("CSV '" + path_ + "': column '" + key + "' given twice");
      header.push_back(key);
    }
    for (std::size_t k = 0; k < header.size(); ++k) text += (k ? "," : "") + quote(header[k]);
    text += '\n';
  }

  std::vector<std::string> line(header.size());
  std::vector<bool> seen(header.size(), false);
  for (const auto& [key, value] : cells) {
    std::size_t k = 0;
    while (k < header.size() && header[k] != key) ++k;
    if (k == header.size())
      throw std::runtime_error("CSV '" + path_ + "': column '" + key +
                               "' is not in the header (" + join_header(header) +
                               "); the first row fixes the columns");
    if (seen[k]) throw std::runtime_error("CSV '" + path_ + "': column '" + key + "' given twice");
    seen[k] = true;
    line[k] = value;
  }
  for (std::size_t k = 0; k < line.size(); ++k) text += (k ? "," : "") + quote(line[k]);
  text += '\n';

  // Commit only after the file is on disk, so a failed write can be retried cleanly.
  make_parent_dirs(path_);
  write_file_atomic(path_, text);
  header_ = std::move(header);
  text_ = std::move(text);
  ++rows_;
}

std::string CsvWriter::quote(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string CsvWriter::format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // to_chars / from_chars in general format behave like "%.Ng" / strtod but ignore
  // the C locale, which a Lua script can change (os.setlocale) to a decimal comma.
  char buf[64];
  for (int precision = 15; precision <= 17; ++precision) {
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision);
    double back = 0;
    std::from_chars(buf, res.ptr, back);
    if (back == v || precision == 17) return std::string(buf, res.ptr);
  }
  return {};  // not reached: precision 17 always round-trips
}

}  // namespace flowlua::io
