#include "registry/registry.h"

#include <cstdlib>

#include "common/redact.h"
#include "registry/env.h"
#include "registry/parse_internal.h"

namespace databox::registry {
namespace {

struct Parsed {
  std::optional<Registry> registry;
  ValidationReport report;
};

std::optional<std::string> ProcessEnv(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

void RegisterResolved(const Secret& secret) {
  if (secret.resolved()) RegisterSecret(secret.Reveal());
}

//! Makes every resolved secret known to the process-wide redactor (common/redact.h).
void RegisterSecrets(const Registry& registry) {
  const ProjectSettings& p = registry.project;
  RegisterResolved(p.catalog.credential);
  RegisterResolved(p.catalog.backup.database_password);
  RegisterResolved(p.warehouse.s3.access_key_id);
  RegisterResolved(p.warehouse.s3.secret_access_key);
  RegisterResolved(p.warehouse.s3.session_token);
  if (registry.publish) {
    RegisterResolved(registry.publish->s3.access_key_id);
    RegisterResolved(registry.publish->s3.secret_access_key);
    RegisterResolved(registry.publish->s3.session_token);
  }
  for (const Source& source : registry.sources) RegisterResolved(source.auth.secret);
}

Parsed Parse(const std::filesystem::path& path, const LoadOptions& options) {
  const std::string file = path.string();
  internal::Problems problems(file);
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec).lexically_normal();
  if (std::filesystem::is_directory(absolute, ec)) {
    problems.Add(0, "is a folder, not a registry file",
                 "pass --config " + (path / "databox.toml").string() +
                     " (or another registry file) or set DATABOX_CONFIG to it");
    return {std::nullopt, problems.Take()};
  }
  if (!std::filesystem::is_regular_file(absolute, ec)) {
    problems.Add(0, "registry file not found",
                 "pass --config PATH or set DATABOX_CONFIG to an existing databox.toml");
    return {std::nullopt, problems.Take()};
  }
  toml::table root;
  try {
    root = toml::parse_file(absolute.string());
  } catch (const toml::parse_error& e) {
    problems.Add(static_cast<int>(e.source().begin.line),
                 "TOML syntax error: " + std::string(e.description()),
                 "fix the syntax; see docs/registry.md for the file format");
    return {std::nullopt, problems.Take()};
  }

  internal::ParseContext ctx{problems,
                             absolute.parent_path(),
                             options.env ? options.env : ProcessEnv,
                             {},
                             (absolute.parent_path() / ".env").string()};
  if (auto dot_env = ReadDotEnv(ctx.config_dir / ".env")) {
    ctx.dot_env = std::move(*dot_env);
  } else {
    problems.Add(0, dot_env.error().message, "fix or remove the .env file");
  }

  Registry registry;
  registry.config_path = absolute;
  internal::TableReader top(root, "top level", problems);
  const internal::Variables variables = internal::ParseVariables(top.Table("variables"), ctx);
  problems.set_variables(&variables);
  registry.project = internal::ParseProject(top.Table("project"), ctx);
  if (const toml::table* publish = top.Table("publish")) {
    registry.publish = internal::ParsePublish(*publish, ctx);
  }
  if (const toml::array* sources = top.Array("source")) {
    for (const toml::node& node : *sources) {
      if (const auto* table = node.as_table()) {
        registry.sources.push_back(
            internal::ParseSource(*table, registry.project.http.replay_dir, ctx));
      } else {
        problems.Add(internal::LineOf(node), "'source' entries must be tables", "use [[source]]");
      }
    }
  }
  if (registry.sources.empty()) {
    problems.Add(0, "the registry declares no [[source]]", "declare at least one source");
  }
  top.ReportUnknownKeys();
  internal::CheckSources(registry.sources, ctx);
  internal::CheckReservedTableNames(registry.sources, registry.project.catalog, ctx);
  problems.set_variables(nullptr);
  return {std::move(registry), problems.Take()};
}

}  // namespace

std::string Problem::ToString() const {
  std::string text = file;
  if (line > 0) text += ":" + std::to_string(line);
  text += ": " + message;
  if (!hint.empty()) text += " (hint: " + hint + ")";
  return text;
}

std::string ValidationReport::ToString() const {
  std::string text;
  for (const Problem& problem : problems) text += problem.ToString() + "\n";
  return text;
}

Result<Registry> LoadRegistry(const std::filesystem::path& path, const LoadOptions& options) {
  Parsed parsed = Parse(path, options);
  if (!parsed.report.ok()) {
    const std::size_t n = parsed.report.problems.size();
    return MakeError(ErrorKind::kConfig, "registry " + path.string() + " has " + std::to_string(n) +
                                             (n == 1 ? " problem" : " problems") + ":\n" +
                                             parsed.report.ToString());
  }
  RegisterSecrets(*parsed.registry);
  return std::move(*parsed.registry);
}

ValidationReport Validate(const std::filesystem::path& path, const LoadOptions& options) {
  return Parse(path, options).report;
}

}  // namespace databox::registry
