#include "iceberg/spec/table_names.h"

#include <algorithm>

namespace databox::iceberg {
namespace {

//! Longest prefix accepted: a prefix only has to be unlikely in a table name, not descriptive.
constexpr size_t kMaxPrefixLength = 32;

bool ValidPrefix(std::string_view prefix) {
  if (prefix.empty() || prefix.size() > kMaxPrefixLength) return false;
  if (prefix.front() < 'a' || prefix.front() > 'z') return false;
  return std::ranges::all_of(
      prefix, [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}

}  // namespace

Result<TableNames> TableNames::Make(std::string underscore_prefix) {
  if (!underscore_prefix.empty() && !ValidPrefix(underscore_prefix)) {
    return MakeError(ErrorKind::kConfig,
                     "underscore table prefix '" + underscore_prefix +
                         "' is not 1 to 32 lowercase letters and digits starting with a letter "
                         "(hint: \"dbx\")");
  }
  return TableNames(std::move(underscore_prefix));
}

Result<std::string> TableNames::ToServer(std::string_view name) const {
  if (prefix_.empty()) return std::string(name);
  if (name.starts_with('_')) return prefix_ + std::string(name);
  if (name.starts_with(prefix_ + "_")) {
    return MakeError(ErrorKind::kConfig,
                     "table name '" + std::string(name) + "' is reserved: with the underscore " +
                         "table prefix '" + prefix_ + "' the catalog's " + prefix_ +
                         "_... tables are databox's _... tables (hint: choose another table "
                         "name, or another [project.catalog] underscore_table_prefix)");
  }
  return std::string(name);
}

Result<TableIdentifier> TableNames::ToServer(const TableIdentifier& table) const {
  auto name = ToServer(table.name);
  if (!name) return std::unexpected(name.error().WithContext("table " + table.ToString()));
  return TableIdentifier{table.ns, std::move(*name)};
}

std::string TableNames::FromServer(std::string_view name) const {
  if (!prefix_.empty() && name.starts_with(prefix_ + "_")) {
    return std::string(name.substr(prefix_.size()));
  }
  return std::string(name);
}

TableIdentifier TableNames::FromServer(const TableIdentifier& table) const {
  return TableIdentifier{table.ns, FromServer(table.name)};
}

}  // namespace databox::iceberg
