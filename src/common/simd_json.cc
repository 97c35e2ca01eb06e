#include "common/simd_json.h"

#include <simdjson.h>

#include <cstdint>
#include <string_view>
#include <unordered_set>

namespace databox {

nlohmann::ordered_json ToNlohmann(const simdjson::dom::element& element) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::ARRAY: {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      simdjson::dom::array array;
      [[maybe_unused]] auto error = element.get(array);  // the type was checked
      for (simdjson::dom::element item : array) {
        out.push_back(ToNlohmann(item));
      }
      return out;
    }
    case element_type::OBJECT: {
      nlohmann::ordered_json out = nlohmann::ordered_json::object();
      simdjson::dom::object object;
      [[maybe_unused]] auto error = element.get(object);  // the type was checked
      for (simdjson::dom::key_value_pair field : object) {
        out[std::string(field.key)] = ToNlohmann(field.value);
      }
      return out;
    }
    case element_type::INT64:
      return nlohmann::ordered_json(element.get_int64().value_unsafe());
    case element_type::UINT64:
      return nlohmann::ordered_json(element.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return nlohmann::ordered_json(element.get_double().value_unsafe());
    case element_type::STRING:
      return nlohmann::ordered_json(std::string(element.get_string().value_unsafe()));
    case element_type::BOOL:
      return nlohmann::ordered_json(element.get_bool().value_unsafe());
    case element_type::NULL_VALUE:
      return nlohmann::ordered_json(nullptr);
  }
  return nlohmann::ordered_json(nullptr);
}

bool HasDuplicateKeys(const simdjson::dom::element& element) {
  using simdjson::dom::element_type;
  if (element.type() == element_type::ARRAY) {
    simdjson::dom::array array;
    [[maybe_unused]] auto error = element.get(array);  // the type was checked
    for (simdjson::dom::element item : array) {
      if (HasDuplicateKeys(item)) return true;
    }
    return false;
  }
  if (element.type() != element_type::OBJECT) return false;
  simdjson::dom::object object;
  [[maybe_unused]] auto error = element.get(object);  // the type was checked
  constexpr std::size_t kMaxPairwise = 32;            // beyond this many keys a set is cheaper
  // Left uninitialized (only the first `count` are read): a std::string_view array would be
  // zeroed on every call, which cost more than the comparisons.
  struct KeyRef {
    const char* data;
    std::size_t size;
    std::string_view view() const { return {data, size}; }
  };
  KeyRef keys[kMaxPairwise];
  std::size_t count = 0;
  // One bit per cheap key hash: a key whose bit is still clear cannot equal an earlier key, so
  // only keys that share a bit with one are compared (most records: none).
  uint64_t seen = 0;
  std::unordered_set<std::string_view> many;
  for (simdjson::dom::key_value_pair field : object) {
    if (count < kMaxPairwise) {
      const std::string_view key = field.key;
      const std::size_t hash =
          key.size() * 7 + (key.empty() ? 0
                                        : static_cast<unsigned char>(key.front()) * 3u +
                                              static_cast<unsigned char>(key.back()));
      const uint64_t bit = uint64_t{1} << (hash % 64);
      if ((seen & bit) != 0) {
        for (std::size_t i = 0; i < count; ++i) {
          if (keys[i].view() == key) return true;
        }
      }
      seen |= bit;
      keys[count++] = {key.data(), key.size()};
      if (count == kMaxPairwise) {
        for (const KeyRef& k : keys) many.insert(k.view());
      }
    } else if (!many.insert(field.key).second) {
      return true;
    }
    if (HasDuplicateKeys(field.value)) return true;
  }
  return false;
}

}  // namespace databox
