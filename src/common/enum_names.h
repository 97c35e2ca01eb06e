// Names of enum values, written once per enum: a table of (value, name) pairs gives the name of a
// value, the value of a name, and the list of names an error message offers. Every enum that is
// written to a file, a flag or a message names its values through one such table.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

//! The table of an enum's names: `constexpr EnumNames<Color, 2> kColorNames{{{kRed, "red"}, ...}};`
template <typename Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

//! True when no value and no name appears twice (for a static_assert beside each table).
template <typename Enum, std::size_t N>
constexpr bool DistinctNames(const EnumNames<Enum, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (names[i].value == names[j].value || names[i].name == names[j].name) return false;
    }
  }
  return true;
}

//! The name of `value`; `missing` when the table does not list it.
template <typename Enum, std::size_t N>
constexpr std::string_view NameOf(const EnumNames<Enum, N>& names, Enum value,
                                  std::string_view missing = "?") {
  for (const EnumName<Enum>& entry : names) {
    if (entry.value == value) return entry.name;
  }
  return missing;
}

//! The value named `name`, or nullopt.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> ValueOf(const EnumNames<Enum, N>& names, std::string_view name) {
  for (const EnumName<Enum>& entry : names) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

//! The names in table order (for a command line's list of choices).
template <typename Enum, std::size_t N>
std::vector<std::string> NameList(const EnumNames<Enum, N>& names) {
  std::vector<std::string> out;
  for (const EnumName<Enum>& entry : names) out.emplace_back(entry.name);
  return out;
}

//! The names in table order, each between two `quote`s, joined by ", ": `'a', 'b', 'c'` for
//! quote "'", `a, b, c` for none.
template <typename Enum, std::size_t N>
std::string JoinNames(const EnumNames<Enum, N>& names, std::string_view quote = "") {
  std::string out;
  for (const EnumName<Enum>& entry : names) {
    if (!out.empty()) out += ", ";
    out.append(quote).append(entry.name).append(quote);
  }
  return out;
}

//! The value named `text`, or a kData error "unknown WHAT 'text': expected one of 'a', 'b'".
template <typename Enum, std::size_t N>
Result<Enum> ParseName(const EnumNames<Enum, N>& names, std::string_view text,
                       std::string_view what) {
  if (auto value = ValueOf(names, text)) return *value;
  return MakeError(ErrorKind::kData, "unknown " + std::string(what) + " '" + std::string(text) +
                                         "': expected one of " + JoinNames(names, "'"));
}

}  // namespace databox
