// The [publish] table: where `databox publish` writes and what (docs/publish.md).
#include <regex>

#include "registry/parse_internal.h"

namespace databox::registry::internal {
namespace {

constexpr int kMaxKeptVersions = 1000;

//! Reports every entry of `names` (the list under `key`) that does not match `pattern`.
void CheckNames(TableReader& r, std::string_view key, const std::vector<std::string>& names,
                const std::regex& pattern, std::string_view form) {
  for (const std::string& name : names) {
    if (!std::regex_match(name, pattern)) {
      r.Report(key, "'" + std::string(key) + "' entry '" + name + "' is not " + std::string(form));
    }
  }
}

}  // namespace

PublishSettings ParsePublish(const toml::table& table, ParseContext& ctx) {
  PublishSettings settings;
  TableReader r(table, "[publish]", ctx.problems);
  if (auto to =
          ReadStoreLocation(r, "to", ctx, "databox publish would write every version there")) {
    settings.to = to->first;
    settings.is_s3 = to->second;
  }
  static const std::regex kName("[a-z_][a-z0-9_]*");
  static const std::regex kQualified("[a-z_][a-z0-9_]*\\.[a-z_][a-z0-9_]*");
  settings.namespaces = r.StringList("namespaces").value_or(std::vector<std::string>{});
  CheckNames(r, "namespaces", settings.namespaces, kName, "a namespace name (raw_<source>)");
  settings.tables = r.StringList("tables").value_or(std::vector<std::string>{});
  CheckNames(r, "tables", settings.tables, kQualified, "namespace.table");
  settings.models = r.StringList("models");
  if (settings.models) CheckNames(r, "models", *settings.models, kQualified, "schema.model");
  settings.keep = static_cast<int>(r.Int("keep", 1, kMaxKeptVersions).value_or(settings.keep));
  ReadS3Subtable(r, "[publish.s3]", "target", settings.is_s3,
                 "remove it or set to = \"s3://bucket/prefix\"", settings.s3, ctx);
  r.ReportUnknownKeys();
  return settings;
}

}  // namespace databox::registry::internal
