// UTF-8 validation for text on its way into typed columns.
#pragma once

#include <string_view>

namespace databox::normalize {

//! True when `text` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool IsValidUtf8(std::string_view text);

}  // namespace databox::normalize
