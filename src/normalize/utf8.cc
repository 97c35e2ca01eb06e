#include "normalize/utf8.h"

#include <simdjson.h>

namespace databox::normalize {

bool IsValidUtf8(std::string_view text) {
  return simdjson::validate_utf8(text.data(), text.size());
}

}  // namespace databox::normalize
