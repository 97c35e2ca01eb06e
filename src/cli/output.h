// Writing to the terminal. Everything the CLI prints goes through here, so that secrets
// registered with common/redact.h are masked in every line.
#pragma once

#include <string_view>

namespace databox::cli {

//! Writes to standard output, secrets masked.
void Out(std::string_view text);
//! Writes to standard error, secrets masked.
void Err(std::string_view text);

}  // namespace databox::cli
