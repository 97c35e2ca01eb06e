#include "duck/escaped_error.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace databox::duck {
namespace {

//! `text` on one line: every run of white space that holds a line break becomes one space.
std::string FoldLines(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t end = std::min(text.find_first_not_of(kSpace, i), text.size());
    if (end == i) {
      out += text[i++];
      continue;
    }
    const std::string_view run = text.substr(i, end - i);
    out += run.find_first_of("\r\n") == std::string_view::npos ? run : std::string_view(" ");
    i = end;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string DescribeEscapedError(std::string_view what) {
  const auto json = nlohmann::json::parse(what, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("exception_message") ||
      !json["exception_message"].is_string()) {
    return FoldLines(what);
  }
  std::string type = json.value("exception_type", "");
  std::string text = type.empty() ? "" : type + " error: ";
  text += json["exception_message"].get<std::string>();
  return FoldLines(text);
}

}  // namespace databox::duck
