#include "refresh/transform_runner.h"

#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "common/clock.h"
#include "common/interrupt.h"
#include "common/process.h"
#include "common/redact.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "fileio/durable.h"
#include "refresh/analytics.h"
#include "refresh/model_state.h"
#include "refresh/raw_catalog.h"
#include "refresh/raw_columns.h"
#include "refresh/sqlmesh_install.h"
#include "refresh/trino_views.h"

namespace databox::refresh {
namespace {

//! Terminal width SQLMesh is told (COLUMNS): wide enough that its progress lines do not wrap.
constexpr int kOutputColumns = 240;

//! The registry's default command (registry/parse_project.cc) for this project.
std::vector<std::string> RegistryDefaultCommand(const registry::Registry& registry) {
  return {"sqlmesh", "-p",           registry.project.transform.project_dir.string(),
          "plan",    "--auto-apply", "--no-prompts"};
}

std::filesystem::path DefaultRunDir(const registry::Registry& registry) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &utc);
  return registry.project.state_dir / "transform_runs" /
         (std::string(stamp) + "-" + std::to_string(::getpid()));
}

std::filesystem::path VenvDir(const registry::Registry& registry, const TransformOptions& options) {
  if (!options.venv_dir.empty()) return options.venv_dir;
  if (const char* env = std::getenv("DATABOX_VENV_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  std::filesystem::path local = registry.project.config_dir / ".venv";
  std::error_code ec;
  return std::filesystem::exists(local / "bin", ec) ? local : std::filesystem::path();
}

std::string PathWith(const std::filesystem::path& venv) {
  const char* inherited = std::getenv("PATH");
  std::string path = inherited != nullptr ? inherited : "/usr/local/bin:/usr/bin:/bin";
  if (venv.empty()) return path;
  return (venv / "bin").string() + ":" + path;
}

void AppendToLog(const std::filesystem::path& log, const std::string& line) {
  std::ofstream(log, std::ios::app) << line << "\n";
}

bool UsesTrino(const registry::Registry& registry) {
  return registry.project.transform.gateway == registry::TransformGateway::kTrino;
}

//! The DATABOX_TRINO_* and DATABOX_SQLMESH_STATE_PG_* variables of the Trino gateway: the
//! coordinator's scheme, host and port and the parts of the state database's URL (checked by
//! the registry: postgresql://[user@]host[:port]/database[?...]).
std::map<std::string, std::string> TrinoGatewayEnvironment(const registry::Registry& registry) {
  const registry::TrinoGatewaySettings& trino = registry.project.transform.trino;
  std::map<std::string, std::string> env;
  const auto scheme_end = trino.uri.find("://");
  const std::string scheme = trino.uri.substr(0, scheme_end);
  std::string authority = trino.uri.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find('/'));
  const auto colon = authority.rfind(':');
  env["DATABOX_TRANSFORM_GATEWAY"] = "trino";
  env["DATABOX_TRINO_HTTP_SCHEME"] = scheme;
  env["DATABOX_TRINO_HOST"] = authority.substr(0, colon);
  env["DATABOX_TRINO_PORT"] = colon == std::string::npos ? (scheme == "https" ? "443" : "8080")
                                                         : authority.substr(colon + 1);
  env["DATABOX_TRINO_USER"] = trino.user;
  env["DATABOX_ANALYTICS_CATALOG"] = trino.analytics_catalog;

  std::string url = trino.state_url.substr(trino.state_url.find("://") + 3);
  url = url.substr(0, url.find('?'));
  const auto slash = url.find('/');
  std::string host = url.substr(0, slash);
  const auto at = host.rfind('@');
  env["DATABOX_SQLMESH_STATE_PG_USER"] = at == std::string::npos ? "" : host.substr(0, at);
  if (at != std::string::npos) host = host.substr(at + 1);
  const auto port = host.rfind(':');
  env["DATABOX_SQLMESH_STATE_PG_HOST"] = host.substr(0, port);
  env["DATABOX_SQLMESH_STATE_PG_PORT"] = port == std::string::npos ? "5432" : host.substr(port + 1);
  env["DATABOX_SQLMESH_STATE_PG_DATABASE"] = url.substr(slash + 1);
  env["DATABOX_SQLMESH_STATE_PG_PASSWORD"] = trino.state_password.Reveal();
  return env;
}

std::string Join(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) text += (text.empty() ? "" : " ") + arg;
  return text;
}

}  // namespace

std::filesystem::path SqlMeshStatePath(const registry::Registry& registry) {
  return registry.project.state_dir / "sqlmesh_state.duckdb";
}

bool IsDefaultTransformCommand(const registry::Registry& registry) {
  return registry.project.transform.command == RegistryDefaultCommand(registry);
}

std::vector<std::vector<std::string>> TransformCommands(const registry::Registry& registry,
                                                        bool prod_exists) {
  if (!IsDefaultTransformCommand(registry)) return {registry.project.transform.command};
  std::vector<std::string> plan = {
      "sqlmesh",     "-p",   registry.project.transform.project_dir.string(),
      "plan",        "prod", "--auto-apply",
      "--no-prompts"};
  std::vector<std::vector<std::string>> steps = {plan};
  if (prod_exists) {
    plan.push_back("--restate-model");
    plan.push_back("*");
    steps.push_back(std::move(plan));
  }
  return steps;
}

Result<bool> SqlMeshProdExists(const std::filesystem::path& state_db) {
  std::error_code ec;
  if (!std::filesystem::exists(state_db, ec)) return false;
  duck::DatabaseOptions options;
  options.read_only = true;
  options.threads = 1;
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(state_db.string(), options));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  auto result = conn.Query(
      "SELECT count(*) FROM information_schema.tables "
      "WHERE table_schema = 'sqlmesh' AND table_name = '_environments'");
  if (!result) return std::unexpected(result.error());
  DATABOX_ASSIGN_OR_RETURN(int64_t tables, result->GetInt64(0, 0));
  if (tables == 0) return false;
  DATABOX_ASSIGN_OR_RETURN(auto prod, conn.Query("SELECT count(*) FROM sqlmesh._environments "
                                                 "WHERE name = 'prod'"));
  DATABOX_ASSIGN_OR_RETURN(int64_t count, prod.GetInt64(0, 0));
  return count > 0;
}

Result<std::map<std::string, std::string>> TransformEnvironment(
    const load::Workspace& workspace, const std::filesystem::path& run_dir) {
  const registry::Registry& registry = workspace.registry();
  const auto& analytics = registry.project.analytics;
  std::map<std::string, std::string> env = {
      {"DATABOX_ANALYTICS_DB", analytics.database.string()},
      {"DATABOX_ANALYTICS_CATALOG", analytics.database.stem().string()},
      {"DATABOX_RAW_VIEWS_DB", RawViewsPath(registry).string()},
      {"DATABOX_CATALOG_ALIAS", analytics.catalog_alias},
      {"DATABOX_SQLMESH_STATE_DB", SqlMeshStatePath(registry).string()},
      {"DATABOX_DUCKDB_EXTENSION_DIRECTORY", duck::DefaultExtensionDirectory()},
      {"SQLMESH__CACHE_DIR", (run_dir / "sqlmesh_cache").string()},
      {"PYTHONUNBUFFERED", "1"},
      {"COLUMNS", std::to_string(kOutputColumns)},
  };
  // With credentials vended per table only, SQLMesh's DuckDB reads through the attached
  // catalog, which vends them to DuckDB too: no warehouse-wide S3 secret exists to pass.
  const bool vended_only = !workspace.warehouse_wide_access() && AttachesRawCatalog(registry);
  std::optional<load::DuckDbS3Access> s3;
  if (!vended_only) {
    DATABOX_ASSIGN_OR_RETURN(s3, workspace.DuckDbS3());
  }
  if (s3) {
    env["DATABOX_WAREHOUSE_S3"] = "1";
    env["DATABOX_S3_ENDPOINT"] = s3->endpoint;
    env["DATABOX_S3_USE_SSL"] = s3->use_ssl ? "true" : "false";
    env["DATABOX_S3_URL_STYLE"] = s3->url_style;
    env["DATABOX_S3_REGION"] = s3->region;
    env["DATABOX_S3_KEY_ID"] = s3->key_id;
    env["DATABOX_S3_SECRET"] = s3->secret;
    env["DATABOX_S3_SESSION_TOKEN"] = s3->session_token;
  }
  DATABOX_ASSIGN_OR_RETURN(auto raw_catalog, RawCatalogEnvironment(registry));
  env.merge(raw_catalog);
  if (UsesTrino(registry)) {
    for (auto& [name, value] : TrinoGatewayEnvironment(registry)) env[name] = std::move(value);
  }
  return env;
}

namespace {

//! Runs `commands` in order in the run folder (see the file comment), stopping at the first
//! that fails, times out or is interrupted. `run_dir` must not be empty.
Result<TransformResult> RunSteps(load::Workspace& workspace,
                                 const std::vector<std::vector<std::string>>& commands,
                                 const std::filesystem::path& run_dir,
                                 const TransformOptions& options,
                                 const std::map<std::string, std::string>& env_overrides = {}) {
  const registry::Registry& registry = workspace.registry();
  const auto started = std::chrono::steady_clock::now();
  if (Status made = fileio::CreateFoldersDurably(run_dir); !made) {
    return std::unexpected(made.error().WithContext("the transform run folder"));
  }
  ProcessSpec spec;
  DATABOX_ASSIGN_OR_RETURN(spec.env, TransformEnvironment(workspace, run_dir));
  spec.env["PATH"] = PathWith(VenvDir(registry, options));
  for (const auto& [name, value] : env_overrides) spec.env[name] = value;
  spec.cwd = run_dir;
  spec.log_path = run_dir / "transform.log";
  spec.deadline = started + options.timeout;
  spec.kill_grace = options.kill_grace;
  spec.what = "transform";
  spec.not_found_hint = std::string(kSqlMeshInstallHint) + ", or set [project.transform] command";
  spec.stop = [] { return InterruptSignal() != 0; };

  TransformResult result;
  result.log_path = spec.log_path;
  result.ok = true;
  std::error_code ec;
  for (size_t i = 0; i < commands.size(); ++i) {
    if (InterruptSignal() != 0) {
      AppendToLog(spec.log_path, "== databox: interrupted by " + SignalName(InterruptSignal()) +
                                     " before step " + std::to_string(i + 1));
      result.ok = false;
      result.interrupted = true;
      break;
    }
    spec.argv = commands[i];
    AppendToLog(spec.log_path, "== databox transform step " + std::to_string(i + 1) + "/" +
                                   std::to_string(commands.size()) + ": " + Join(spec.argv));
    auto outcome = RunProcess(spec);
    if (!outcome) {
      std::filesystem::remove_all(run_dir / "sqlmesh_cache", ec);
      return std::unexpected(outcome.error());
    }
    result.steps.push_back({.argv = spec.argv,
                            .exit_code = outcome->exit_code,
                            .timed_out = outcome->timed_out,
                            .interrupted = outcome->stopped});
    if (outcome->timed_out) {
      AppendToLog(spec.log_path, "== databox: step timed out and was stopped");
    }
    if (outcome->stopped) {
      AppendToLog(spec.log_path,
                  "== databox: step stopped: interrupted by " + SignalName(InterruptSignal()));
      result.interrupted = true;
    }
    if (outcome->timed_out || outcome->stopped || outcome->exit_code != 0) {
      result.ok = false;
      break;
    }
  }
  std::filesystem::remove_all(run_dir / "sqlmesh_cache", ec);
  result.log_tail = Redact(FileTail(spec.log_path, options.log_tail_bytes));
  result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  return result;
}

//! Each model's result: the log's account merged with the state and the row counts on DuckDB.
std::vector<ModelResult> ModelResults(const registry::Registry& registry,
                                      const TransformResult& result) {
  std::ifstream in(result.log_path, std::ios::binary);
  std::stringstream log;
  log << in.rdbuf();
  auto printed = ParseSqlMeshOutput(log.str());
  std::map<std::string, ModelBuild> builds;
  if (!UsesTrino(registry)) {
    auto read = ReadModelBuilds(SqlMeshStatePath(registry), registry.project.analytics.database);
    if (read) builds = std::move(*read);
  }
  for (auto& [name, model] : printed) model.error = Redact(model.error);
  return MergeModelResults(printed, builds, result.ok);
}

//! Saves `columns` (read before the run) as the raw columns of the last transform; the
//! problem when they could not be read or saved.
std::string SaveRawColumns(const registry::Registry& registry, const Result<RawColumns>& columns) {
  if (!columns) return "cannot read the raw tables' columns: " + columns.error().message;
  const RawColumnsSnapshot snapshot{.saved_at = NowIso(), .tables = *columns};
  if (Status saved = SaveRawColumnsSnapshot(RawColumnsSnapshotPath(registry), snapshot); !saved) {
    return "cannot save the raw tables' columns: " + saved.error().message;
  }
  return "";
}

}  // namespace

Result<TransformResult> RunTransform(load::Workspace& workspace, const TransformOptions& options) {
  const registry::Registry& registry = workspace.registry();
  DATABOX_RETURN_IF_ERROR(EnsureRawViews(workspace));
  bool prod_exists = false;
  if (UsesTrino(registry)) {
    // The state is in PostgreSQL: restating after the plan is right whether or not the plan
    // created prod (it then recomputes once more).
    prod_exists = true;
  } else if (IsDefaultTransformCommand(registry)) {
    // Unknown state layout (another SQLMesh version): restating is the safe side.
    auto exists = SqlMeshProdExists(SqlMeshStatePath(registry));
    prod_exists = exists.value_or(true);
  }
  // Read before the run: the columns the transform saw, whatever a concurrent load commits.
  const Result<RawColumns> columns = ReadRawColumns(workspace);
  TrinoViewStatements trino_views;
  if (UsesTrino(registry)) {
    if (Status ready = CheckTrinoReady(registry); !ready) {
      return std::unexpected(ready.error().WithContext("the transform's Trino gateway"));
    }
    DATABOX_ASSIGN_OR_RETURN(trino_views, MakeTrinoViewStatements(workspace));
    if (Status made = RunOnTrino(registry, trino_views.before); !made) {
      (void)RunOnTrino(registry, trino_views.after);
      return std::unexpected(made.error().WithContext("the platform views on Trino"));
    }
  }
  auto result =
      RunSteps(workspace, TransformCommands(registry, prod_exists),
               options.run_dir.empty() ? DefaultRunDir(registry) : options.run_dir, options);
  if (UsesTrino(registry)) {
    Status dropped = RunOnTrino(registry, trino_views.after);
    if (!dropped && result) {
      AppendToLog(result->log_path,
                  "== databox: the placeholder views were not dropped: " + dropped.error().message);
    }
  }
  if (!result) return result;
  if (result->ok) result->raw_columns_problem = SaveRawColumns(registry, columns);
  if (IsDefaultTransformCommand(registry)) result->models = ModelResults(registry, *result);
  return result;
}

bool PreviewFoundChanges(int exit_code, const std::string& output) {
  if (exit_code != 1 || output.find("Summary of differences") == std::string::npos) return false;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("Error:") || line.starts_with("Traceback")) return false;
  }
  return true;
}

std::vector<std::string> PreviewCommand(const registry::Registry& registry) {
  return {"sqlmesh", "-p", registry.project.transform.project_dir.string(), "diff", "prod"};
}

Result<TransformResult> PreviewTransform(load::Workspace& workspace,
                                         const TransformOptions& options) {
  const registry::Registry& registry = workspace.registry();
  DATABOX_RETURN_IF_ERROR(EnsureRawViews(workspace));
  std::filesystem::path run_dir = options.run_dir;
  if (run_dir.empty()) run_dir = DefaultRunDir(registry).string() + "-plan";
  if (Status made = fileio::CreateFoldersDurably(run_dir); !made) {
    return std::unexpected(made.error().WithContext("the transform run folder"));
  }
  // SQLMesh works on a copy of its state (it initializes a missing state, and would migrate
  // an old one): the preview cannot change the real one, whatever SQLMesh does.
  if (UsesTrino(registry)) {
    // The state is in PostgreSQL, which databox does not copy: `sqlmesh diff` reads it and
    // changes nothing (SQLMesh of the same version finds nothing to migrate).
    return RunSteps(workspace, {PreviewCommand(registry)}, run_dir, options);
  }
  const std::filesystem::path state = SqlMeshStatePath(registry);
  const std::filesystem::path copy = run_dir / state.filename();
  std::error_code ec;
  for (const char* suffix : {"", ".wal"}) {
    const std::filesystem::path from = state.string() + suffix;
    if (!std::filesystem::exists(from, ec)) continue;
    std::filesystem::copy_file(from, copy.string() + suffix,
                               std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) {
      return MakeError(ErrorKind::kIo, "cannot copy the SQLMesh state " + from.string() + " to " +
                                           run_dir.string() + ": " + ec.message());
    }
  }
  auto result = RunSteps(workspace, {PreviewCommand(registry)}, run_dir, options,
                         {{"DATABOX_SQLMESH_STATE_DB", copy.string()}});
  for (const char* suffix : {"", ".wal"}) {
    std::filesystem::remove(copy.string() + suffix, ec);
  }
  return result;
}

}  // namespace databox::refresh
