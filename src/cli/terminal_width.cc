#include "cli/terminal_width.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace databox::cli {

std::optional<std::size_t> WidthFrom(std::size_t window_columns, const char* columns_env) {
  if (window_columns > 0) return window_columns;
  if (columns_env == nullptr) return std::nullopt;
  std::size_t value = 0;
  const char* end = columns_env + std::strlen(columns_env);
  const auto [rest, error] = std::from_chars(columns_env, end, value);
  if (error != std::errc() || rest != end || value == 0) return std::nullopt;
  return value;
}

std::optional<std::size_t> StdoutWidth() {
  winsize size{};
  std::size_t window = 0;
  if (::isatty(STDOUT_FILENO) == 1 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
    window = size.ws_col;
  }
  return WidthFrom(window, std::getenv("COLUMNS"));
}

}  // namespace databox::cli
