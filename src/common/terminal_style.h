// Colour on a terminal: used only when the output is a terminal and NO_COLOR
// (https://no-color.org) is unset or empty, and TERM is not "dumb". Everything printed with a
// style reads the same without it.
#pragma once

#include <string>
#include <string_view>

namespace databox {

enum class Style {
  kPlain,
  kBold,
  kDim,
  kGreen,   //!< succeeded
  kRed,     //!< failed
  kYellow,  //!< running, warnings
  kCyan,    //!< names
};

//! True when output to file descriptor `fd` should be coloured (see the file comment).
bool ColourWanted(int fd);

//! Whether colour is wanted given the facts ColourWanted reads, for tests.
bool ColourWantedFor(bool is_terminal, const char* no_color, const char* term);

//! `text` wrapped in the style's ANSI escape (and a reset) when `colour`, else `text` itself.
std::string Styled(std::string_view text, Style style, bool colour);

}  // namespace databox
