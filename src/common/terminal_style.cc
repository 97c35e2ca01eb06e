#include "common/terminal_style.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace databox {
namespace {

std::string_view EscapeOf(Style style) {
  switch (style) {
    case Style::kPlain:
      return "";
    case Style::kBold:
      return "\x1b[1m";
    case Style::kDim:
      return "\x1b[2m";
    case Style::kGreen:
      return "\x1b[32m";
    case Style::kRed:
      return "\x1b[31m";
    case Style::kYellow:
      return "\x1b[33m";
    case Style::kCyan:
      return "\x1b[36m";
  }
  return "";
}

}  // namespace

bool ColourWantedFor(bool is_terminal, const char* no_color, const char* term) {
  if (!is_terminal) return false;
  if (no_color != nullptr && *no_color != '\0') return false;
  return term == nullptr || std::strcmp(term, "dumb") != 0;
}

bool ColourWanted(int fd) {
  return ColourWantedFor(::isatty(fd) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

std::string Styled(std::string_view text, Style style, bool colour) {
  const std::string_view escape = EscapeOf(style);
  if (!colour || escape.empty()) return std::string(text);
  return std::string(escape) + std::string(text) + "\x1b[0m";
}

}  // namespace databox
