#include "refresh/preflight.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "duck/connection.h"
#include "duck/database.h"
#include "fileio/location.h"
#include "refresh/sqlmesh_install.h"
#include "refresh/transform_runner.h"
#include "refresh/trino_views.h"

namespace databox::refresh {
namespace {

namespace fs = std::filesystem;

void CheckCatalog(load::Workspace& ws, std::vector<std::string>& problems) {
  if (auto listed = ws.catalog().ListNamespaces({}); !listed) {
    problems.push_back("catalog " + std::string(ws.catalog().Name()) +
                       " is not reachable: " + listed.error().message);
  }
}

void CheckWarehouse(load::Workspace& ws, std::vector<std::string>& problems) {
  // With only the credentials a catalog vends per table nothing may be written at the root;
  // the first table the load touches shows whether storage works.
  if (!ws.warehouse_wide_access()) return;
  const std::string& warehouse = ws.registry().project.warehouse.location;
  const std::string probe = fileio::JoinLocation(
      warehouse, ".databox-preflight-" + std::to_string(::getpid()) + ".probe");
  const std::string payload = "databox preflight probe";
  auto& io = *ws.file_io();
  if (auto wrote = io.Write(probe, payload); !wrote) {
    problems.push_back("warehouse " + warehouse + " is not writable: " + wrote.error().message);
    return;
  }
  auto read = io.Read(probe);
  if (!read || *read != payload) {
    problems.push_back("warehouse " + warehouse +
                       ": a probe object written could not be read back" +
                       (read ? "" : ": " + read.error().message));
  }
  if (auto deleted = io.Delete(probe); !deleted) {
    problems.push_back("warehouse " + warehouse + ": cannot delete the probe object " + probe +
                       ": " + deleted.error().message);
  }
}

//! Opens (creating) the DuckDB file at `path` and writes a probe table into it.
Status ProbeWritable(const fs::path& path) {
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(path.string()));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  return conn.Execute(
      "CREATE OR REPLACE TABLE databox_preflight_probe AS SELECT 1 AS x; "
      "DROP TABLE databox_preflight_probe");
}

void CheckAnalytics(load::Workspace& ws, std::vector<std::string>& problems) {
  const fs::path& path = ws.registry().project.analytics.database;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  // A database file is never empty: a 0-byte one is what a failed creation (a full disk) left,
  // and DuckDB would refuse it on every later run.
  if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) == 0 && !ec) fs::remove(path, ec);
  const bool existed = fs::exists(path, ec);
  Status probe = ProbeWritable(path);
  if (!probe) {
    problems.push_back("analytics database " + path.string() +
                       " is not writable: " + probe.error().message);
    // What this check created must not outlive it (a later run would meet a broken file).
    if (!existed) {
      fs::remove(path, ec);
      fs::remove(path.string() + ".wal", ec);
    }
  }
}

//! True when `program` names an executable file, directly or on PATH.
bool OnPath(const std::string& program, const std::string& path_env) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  std::stringstream dirs(path_env);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

void CheckTransform(const registry::Registry& registry, PreflightFor command,
                    std::vector<std::string>& problems) {
  const std::string or_skip =
      command == PreflightFor::kRefresh ? "; or refresh with --skip-transform" : "";
  const auto commands = TransformCommands(registry, false);
  if (commands.empty() || commands.front().empty()) {
    problems.push_back("no transform command is configured ([project.transform])");
    return;
  }
  // The runner puts the project virtualenv first on PATH ($DATABOX_VENV_DIR, else a .venv
  // beside the registry): look where it will.
  std::string path_env = std::getenv("PATH") ? std::getenv("PATH") : "";
  path_env = (registry.project.config_dir / ".venv" / "bin").string() + ":" + path_env;
  if (const char* venv = std::getenv("DATABOX_VENV_DIR"); venv != nullptr && *venv != '\0') {
    path_env = (fs::path(venv) / "bin").string() + ":" + path_env;
  }
  if (!OnPath(commands.front().front(), path_env)) {
    problems.push_back("transform command '" + commands.front().front() +
                       "' was not found (PATH and the project virtualenv): " +
                       std::string(kSqlMeshInstallHint) + or_skip);
  }
  if (IsDefaultTransformCommand(registry) &&
      !fs::is_directory(registry.project.transform.project_dir)) {
    problems.push_back("SQLMesh project folder " + registry.project.transform.project_dir.string() +
                       " does not exist ([project.transform] project_dir)");
  }
  if (registry.project.transform.gateway == registry::TransformGateway::kTrino) {
    if (Status ready = CheckTrinoReady(registry); !ready) {
      problems.push_back("the transform's Trino gateway: " + ready.error().message +
                         " ([project.transform] trino_uri)" + or_skip);
    }
  }
}

}  // namespace

std::vector<std::string> RunRegistryPreflight(const registry::Registry& registry,
                                              const PreflightOptions& options) {
  std::vector<std::string> problems;
  if (options.check_transform) CheckTransform(registry, options.command, problems);
  return problems;
}

std::vector<std::string> RunWorkspacePreflight(load::Workspace& workspace,
                                               const PreflightOptions& options) {
  std::vector<std::string> problems;
  CheckCatalog(workspace, problems);
  if (options.command == PreflightFor::kRefresh) CheckWarehouse(workspace, problems);
  CheckAnalytics(workspace, problems);
  return problems;
}

std::vector<std::string> RunPreflight(load::Workspace& workspace, const PreflightOptions& options) {
  std::vector<std::string> problems = RunWorkspacePreflight(workspace, options);
  for (std::string& problem : RunRegistryPreflight(workspace.registry(), options)) {
    problems.push_back(std::move(problem));
  }
  return problems;
}

}  // namespace databox::refresh
