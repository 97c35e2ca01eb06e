#include "iceberg/spec/table_identifier.h"

namespace databox::iceberg {
namespace {

bool ValidLevel(std::string_view level) {
  return !level.empty() && level.find('.') == std::string_view::npos &&
         level.find('\0') == std::string_view::npos;
}

}  // namespace

std::string TableIdentifier::ToString() const {
  return ns.empty() ? name : NamespaceToString(ns) + "." + name;
}

std::string NamespaceToString(const Namespace& ns) {
  std::string out;
  for (const std::string& level : ns) {
    if (!out.empty()) out += '.';
    out += level;
  }
  return out;
}

Namespace NamespaceFromString(std::string_view text) {
  Namespace out;
  if (text.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t dot = text.find('.', start);
    out.emplace_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return out;
    start = dot + 1;
  }
}

Result<TableIdentifier> ParseTableIdentifier(std::string_view text) {
  Namespace levels = NamespaceFromString(text);
  if (levels.size() < 2) {
    return MakeError(ErrorKind::kConfig, "table identifier '" + std::string(text) +
                                             "' has no namespace; write it as namespace.table");
  }
  TableIdentifier id{.ns = {}, .name = levels.back()};
  levels.pop_back();
  id.ns = std::move(levels);
  DATABOX_RETURN_IF_ERROR(ValidateTableIdentifier(id));
  return id;
}

Status ValidateNamespace(const Namespace& ns, bool allow_root) {
  if (ns.empty() && !allow_root) {
    return MakeError(ErrorKind::kConfig, "a namespace needs at least one level");
  }
  for (const std::string& level : ns) {
    if (!ValidLevel(level)) {
      return MakeError(ErrorKind::kConfig,
                       "namespace level '" + level + "' in '" + NamespaceToString(ns) +
                           "' is empty or contains '.'; use names without dots");
    }
  }
  return Ok();
}

Status ValidateTableIdentifier(const TableIdentifier& table) {
  DATABOX_RETURN_IF_ERROR(ValidateNamespace(table.ns));
  if (!ValidLevel(table.name)) {
    return MakeError(ErrorKind::kConfig, "table name '" + table.name + "' in namespace '" +
                                             NamespaceToString(table.ns) +
                                             "' is empty or contains '.'; use a name without dots");
  }
  return Ok();
}

}  // namespace databox::iceberg
