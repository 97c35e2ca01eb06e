#include "duck/escaped_error.h"

#include <nlohmann/json.hpp>

namespace databox::duck {
namespace {

//! `text` on one line: every run of white space that holds a line break becomes one space.
std::string FoldLines(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i;
    bool line_break = false;
    while (end < text.size() &&
           (text[end] == ' ' || text[end] == '\t' || text[end] == '\n' || text[end] == '\r')) {
      line_break = line_break || text[end] == '\n' || text[end] == '\r';
      ++end;
    }
    if (end == i) {
      out += text[i++];
    } else {
      if (line_break) {
        out += ' ';
      } else {
        out.append(text.substr(i, end - i));
      }
      i = end;
    }
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
