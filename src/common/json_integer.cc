#include "common/json_integer.h"

#include <charconv>
#include <string>

namespace databox {

Result<int64_t> IntegerFromJson(const nlohmann::json& value) {
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    int64_t parsed = 0;
    const char* end = text.data() + text.size();
    const auto [rest, error] = std::from_chars(text.data(), end, parsed);
    if (error == std::errc() && rest == end && !text.empty()) return parsed;
  }
  return MakeError(ErrorKind::kData,
                   "expected an integer (a number or a string of digits), not " + value.dump());
}

}  // namespace databox
