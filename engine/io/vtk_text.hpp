// Text pieces of VTK's XML formats shared by the .vti/.pvd writer (io/vtk.cpp) and the
// parallel .pvti writer (io/vtk_pieces.cpp).
#pragma once
#include <charconv>
#include <string>

namespace flowlua::io::vtk_text {

// The shortest text that reads back as exactly `v`.
inline std::string number(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// Names go into XML attributes.
inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace flowlua::io::vtk_text
