#include "platform/pg_client.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "common/ascii.h"
#include "common/process.h"
#include "common/redact.h"

namespace databox::platform {
namespace {

namespace fs = std::filesystem;
constexpr auto kToolDeadline = std::chrono::hours(6);
constexpr const char* kConnectTimeoutSeconds = "15";
constexpr size_t kMaxOutputBytes = 64 * 1024;

std::string ReadWhole(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

//! `text` with every occurrence of `secret` masked, then through Redact().
std::string Hide(std::string text, const std::string& secret) {
  if (!secret.empty()) {
    for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
      text.replace(at, secret.size(), "***");
    }
  }
  return Redact(text);
}

//! The first line of `output` holding `needle` (case-insensitive), trimmed; else "".
std::string LineWith(const std::string& output, std::string_view needle) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (AsciiLower(line).find(needle) != std::string::npos) {
      while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
      return line;
    }
  }
  return "";
}

bool Has(const std::string& lower, std::initializer_list<std::string_view> needles) {
  return std::ranges::any_of(
      needles, [&](std::string_view n) { return lower.find(n) != std::string::npos; });
}

}  // namespace

PgClient::PgClient(PgDatabase database, fs::path work_dir)
    : database_(std::move(database)), work_dir_(std::move(work_dir)) {}

Result<std::string> PgClient::Run(const std::string& program, std::vector<std::string> args,
                                  const std::string& action, bool connect) const {
  const char* path = std::getenv("PATH");
  auto resolved = ResolveProgram(program, path != nullptr ? path : "");
  if (!resolved) {
    return MakeError(ErrorKind::kNotFound,
                     program + " is not installed (not found on PATH), so databox cannot " +
                         action + " the catalog database: install Debian's " +
                         kPostgresClientPackage + " (apt-get install " + kPostgresClientPackage +
                         "), whose major version must be at least the server's");
  }
  ProcessSpec spec;
  spec.argv.push_back(resolved->string());
  for (auto& arg : args) spec.argv.push_back(std::move(arg));
  if (connect) spec.argv.push_back("--dbname=" + database_.url);
  // The password reaches the program through its environment only.
  if (!database_.password.empty()) spec.env["PGPASSWORD"] = database_.password;
  if (std::getenv("PGCONNECT_TIMEOUT") == nullptr) {
    spec.env["PGCONNECT_TIMEOUT"] = kConnectTimeoutSeconds;
  }
  spec.cwd = work_dir_;
  spec.log_path = work_dir_ / (program + ".log");
  std::error_code ec;
  fs::remove(spec.log_path, ec);
  spec.deadline = std::chrono::steady_clock::now() + kToolDeadline;
  spec.what = program;
  auto outcome = RunProcess(spec);
  if (!outcome) return std::unexpected(outcome.error());
  std::string output = FileTail(spec.log_path, kMaxOutputBytes);
  fs::remove(spec.log_path, ec);
  if (outcome->timed_out) {
    return MakeError(ErrorKind::kNetwork, program + " did not finish " + action + " " +
                                              database_.url + " within 6 hours; it was stopped");
  }
  if (outcome->exit_code != 0) {
    return std::unexpected(ClassifyPgFailure(program, action, database_.url, database_.password,
                                             outcome->exit_code, output));
  }
  return output;
}

Result<std::vector<std::string>> PgClient::UserTables() const {
  const fs::path out = work_dir_ / "tables.out";
  DATABOX_ASSIGN_OR_RETURN(
      std::string ignored,
      Run("psql",
          {"--no-psqlrc", "--no-password", "--quiet", "--tuples-only", "--no-align",
           "--set=ON_ERROR_STOP=1", "--output=" + out.string(),
           "--command=SELECT table_schema || '.' || table_name FROM information_schema.tables "
           "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1"},
          "inspect"));
  (void)ignored;
  std::istringstream lines(ReadWhole(out));
  std::error_code ec;
  fs::remove(out, ec);
  std::vector<std::string> tables;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) tables.push_back(line);
  }
  std::ranges::sort(tables);
  return tables;
}

Error ClassifyPgFailure(const std::string& program, const std::string& action,
                        const std::string& url, const std::string& password, int exit_code,
                        const std::string& output) {
  const std::string lower = AsciiLower(output);
  const std::string where = " the catalog database " + url;
  auto error = [&](ErrorKind kind, const std::string& message) {
    return Error{kind, Hide(message, password)};
  };
  if (Has(lower, {"server version mismatch", "unsupported version"})) {
    std::string detail = LineWith(output, "version:");
    if (detail.empty()) detail = LineWith(output, "unsupported version");
    return error(ErrorKind::kConfig,
                 program + " cannot " + action + where + ": server version mismatch (" + detail +
                     "): install the " + kPostgresClientPackage +
                     " of the server's major version or newer (e.g. postgresql-client-16) and put "
                     "its " +
                     program + " first on PATH");
  }
  if (Has(lower, {"password authentication failed", "no password supplied", "authentication failed",
                  "fe_sendauth"})) {
    return error(ErrorKind::kAuth, "authentication to" + where + " failed (" +
                                       LineWith(output, "authentication") +
                                       "): check the user in backup_database_url and the password "
                                       "backup_database_password names");
  }
  if (Has(lower, {"connection refused", "could not connect", "could not translate host name",
                  "no route to host", "timeout expired", "network is unreachable"})) {
    std::string detail = LineWith(output, "connection to server");
    if (detail.empty()) detail = LineWith(output, "error:");
    return error(ErrorKind::kNetwork, "cannot connect to" + where + " (" + detail +
                                          "): is PostgreSQL running and reachable there?");
  }
  if (Has(lower, {"does not exist"}) && Has(lower, {"database"})) {
    return error(ErrorKind::kConfig, program + " cannot " + action + where + ": " +
                                         LineWith(output, "does not exist") +
                                         " (check backup_database_url)");
  }
  std::string tail = output;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  return error(ErrorKind::kIo, program + " failed to " + action + where + " (exit " +
                                   std::to_string(exit_code) + "): " + tail);
}

std::vector<std::string> ArchiveTables(const std::string& listing) {
  // Entries look like "215; 1259 16390 TABLE public iceberg_tables polaris".
  std::vector<std::string> tables;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() == ';') continue;
    std::istringstream fields(line);
    std::string id, oid1, oid2, type, schema, name;
    if (!(fields >> id >> oid1 >> oid2 >> type >> schema >> name)) continue;
    if (type == "TABLE" && schema != "DATA") tables.push_back(schema + "." + name);
  }
  std::ranges::sort(tables);
  tables.erase(std::unique(tables.begin(), tables.end()), tables.end());
  return tables;
}

}  // namespace databox::platform
