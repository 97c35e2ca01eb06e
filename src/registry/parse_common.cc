#include <cstdlib>
#include <limits>

#include "registry/env.h"
#include "registry/parse_internal.h"

namespace databox::registry::internal {

std::optional<std::string> LookupVariable(const ParseContext& ctx, const std::string& name) {
  std::optional<std::string> value = ctx.env(name);
  if (!value) {
    if (auto it = ctx.dot_env.find(name); it != ctx.dot_env.end()) value = it->second;
  }
  if (value && value->empty()) value.reset();  // an empty assignment counts as unset
  return value;
}

Variables ParseVariables(const toml::table* table, const ParseContext& ctx) {
  Variables variables;
  variables.lookup = [&ctx](const std::string& name) { return LookupVariable(ctx, name); };
  if (table == nullptr) return variables;
  for (const auto& [key, node] : *table) {
    const std::string name(key.str());
    const auto* range = node.as_table();
    const std::string context = "[variables] " + name;
    if (range == nullptr) {
      ctx.problems.Add(LineOf(node), context + " must be a table",
                       name + " = { min = 1, max = 30 }");
      continue;
    }
    TableReader r(*range, context, ctx.problems);
    const auto min =
        r.Int("min", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    const auto max =
        r.Int("max", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    r.ReportUnknownKeys();
    if (!min || !max || *min > *max) {
      r.Report("min", "needs integers min <= max", name + " = { min = 1, max = 30 }");
      continue;
    }
    if (!ParseEnvReference("${" + name + "}")) {
      r.Report("min", "'" + name + "' is not a variable name",
               "use a name matching [A-Za-z_][A-Za-z0-9_]*");
      continue;
    }
    variables.ranges[name] = {*min, *max};
  }
  return variables;
}

Secret ReadSecret(TableReader& reader, std::string_view key, ParseContext& ctx,
                  bool may_be_absent) {
  auto text = reader.Verbatim(key);
  if (!text) return Secret();
  auto name = ParseEnvReference(*text);
  if (!name) {
    // The value itself may be a real secret pasted into the file: never repeat it.
    reader.Report(key,
                  "'" + std::string(key) +
                      "' must be an ${ENV_VAR} reference; literal secret "
                      "values are not allowed in the registry",
                  "write " + std::string(key) +
                      " = \"${MY_VAR}\" and set MY_VAR in the environment or in " +
                      ctx.dot_env_path);
    return Secret();
  }
  std::optional<std::string> value = LookupVariable(ctx, *name);
  if (!value && !may_be_absent) {
    reader.Report(
        key,
        "environment variable " + *name + " (referenced by '" + std::string(key) + "') is not set",
        "export " + *name + "=... or add it to " + ctx.dot_env_path);
  }
  return Secret(*name, value.value_or(""), value.has_value());
}

std::filesystem::path ResolvePath(const ParseContext& ctx, const std::string& text) {
  std::filesystem::path path(text);
  if (path.is_relative()) path = ctx.config_dir / path;
  return path.lexically_normal();
}

std::string CheckHttpUrl(std::string_view url) {
  std::string_view rest;
  if (url.starts_with("https://")) {
    rest = url.substr(8);
  } else if (url.starts_with("http://")) {
    rest = url.substr(7);
  } else {
    return "must start with http:// or https://";
  }
  if (url.find_first_of(" \t\r\n") != std::string_view::npos) return "must not contain whitespace";
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.empty()) return "has no host";
  if (authority.find('@') != std::string_view::npos) {
    return "must not contain user info (credentials belong in [source.auth] as ${ENV} references)";
  }
  if (url.find('#') != std::string_view::npos) return "must not contain a fragment";
  return "";
}

}  // namespace databox::registry::internal
