// How wide the terminal is that standard output goes to, for tables that fit in it.
#pragma once

#include <cstddef>
#include <optional>

namespace databox::cli {

//! The width in characters when standard output is a terminal (its window size), else
//! $COLUMNS when it is a positive number, else nullopt (output to a file or pipe is not cut).
std::optional<std::size_t> StdoutWidth();

//! The width from the facts StdoutWidth reads (0 = unknown window size), for tests.
std::optional<std::size_t> WidthFrom(std::size_t window_columns, const char* columns_env);

}  // namespace databox::cli
