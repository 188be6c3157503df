// param(name, default) and --set name=value: parsing and type conversion.
#pragma once
#include <string>
#include <utility>

namespace flowlua::lua {

// "name=value" -> {name, value}; UsageError when there is no '=' or the name is not a
// Lua identifier.
std::pair<std::string, std::string> parse_set_argument(const std::string& arg);

enum class ParamType { Auto, Integer, Number, Boolean, String };

struct ParamValue {
  ParamType type = ParamType::String;  // never Auto
  long long integer = 0;
  double number = 0;
  bool boolean = false;
  std::string text;
};

// Converts the --set text to the type of the default (Auto: integer, number, boolean,
// else string). UsageError with the name, the text and the expected type otherwise.
ParamValue convert_param(const std::string& name, const std::string& text, ParamType want,
                         const std::string& default_text = "");

}  // namespace flowlua::lua
