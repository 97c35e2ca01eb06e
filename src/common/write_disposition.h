// How a load applies its rows to a table (dlt's `write_disposition`): one enum for the registry,
// the normalizer, the load and the command line, named as the registry file writes it.
#pragma once

#include <optional>
#include <string_view>

#include "common/enum_names.h"

namespace databox {

enum class WriteDisposition { kAppend, kReplace, kMerge };

inline constexpr EnumNames<WriteDisposition, 3> kWriteDispositionNames{{
    {WriteDisposition::kAppend, "append"},
    {WriteDisposition::kReplace, "replace"},
    {WriteDisposition::kMerge, "merge"},
}};
static_assert(DistinctNames(kWriteDispositionNames));

//! "append", "replace", "merge".
constexpr std::string_view WriteDispositionName(WriteDisposition disposition) {
  return NameOf(kWriteDispositionNames, disposition);
}

//! Inverse of WriteDispositionName.
constexpr std::optional<WriteDisposition> ParseWriteDisposition(std::string_view name) {
  return ValueOf(kWriteDispositionNames, name);
}

}  // namespace databox
