// `databox status` and `databox inspect`: commands that read what is there.
#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/catalog_tables.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/table_format.h"
#include "common/exit_code.h"
#include "common/json_integer.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/table_identifier.h"
#include "iceberg/table_scan.h"
#include "refresh/analytics.h"
#include "refresh/run_history.h"

namespace databox::cli {
namespace {

//! Seconds between an ISO time written by NowIso() and now (-1 if unparsable).
int64_t AgeSeconds(const std::string& iso) {
  std::tm tm{};
  if (iso.size() < 19 || strptime(iso.substr(0, 19).c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) {
    return -1;
  }
  const auto then = std::chrono::system_clock::from_time_t(timegm(&tm));
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - then)
      .count();
}

//! What `databox inspect` parsed.
struct InspectArgs {
  std::string table;
  bool json = false;
};

ExitCode Status(const GlobalOptions& global, bool json_output) {
  auto session = OpenSession(global, "status");
  if (!session) return ExitCode::kUsage;
  auto records = refresh::RunHistory(session->registry.project.state_dir).ReadAll();
  if (!records) {
    Err("databox status: " + records.error().message + "\n");
    return ExitCode::kUsage;
  }
  struct Last {
    const refresh::SourceRun* ok = nullptr;
    std::string ok_at;
    const refresh::SourceRun* failed = nullptr;
    std::string failed_at;
  };
  std::map<std::string, Last> last;
  for (const auto& record : *records) {
    for (const auto& run : record.sources) {
      Last& l = last[run.source];
      if (run.status == refresh::SourceStatus::kOk) {
        l.ok = &run;
        l.ok_at = record.finished_at;
      } else if (run.status == refresh::SourceStatus::kFailed ||
                 run.status == refresh::SourceStatus::kInterrupted) {
        l.failed = &run;
        l.failed_at = record.finished_at;
      }
    }
  }
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  std::string text;
  for (const auto& source : session->registry.sources) {
    const Last& l = last[source.name];
    nlohmann::ordered_json entry = {{"source", source.name}};
    text += source.name + ":\n";
    if (l.ok) {
      const int64_t age = AgeSeconds(l.ok_at);
      entry["last_load"] = {{"load_id", l.ok->load_id},
                            {"rows", l.ok->rows},
                            {"completed_at", l.ok_at},
                            {"age_seconds", age}};
      text += "  last load: " + l.ok->load_id + "  rows=" + std::to_string(l.ok->rows) + "  at " +
              l.ok_at + " (" + std::to_string(age) + " s ago)\n";
    } else {
      entry["last_load"] = nullptr;
      text += "  last load: never\n";
    }
    if (l.failed) {
      const std::string phase(refresh::SourcePhaseName(l.failed->phase));
      entry["last_failure"] = {{"at", l.failed_at}, {"phase", phase}, {"error", l.failed->error}};
      text += "  last failure: " + l.failed_at + " [" + phase + "] " + l.failed->error + "\n";
    } else {
      entry["last_failure"] = nullptr;
    }
    json.push_back(entry);
  }
  Out(json_output ? json.dump(2) + "\n" : text);
  return ExitCode::kOk;
}

ExitCode Inspect(const GlobalOptions& global, const InspectArgs& args) {
  auto ident = iceberg::ParseTableIdentifier(args.table);
  if (!ident) {
    Err("databox inspect: " + ident.error().message + " (expected NAMESPACE.TABLE)\n");
    return ExitCode::kUsage;
  }
  auto session = OpenSession(global, "inspect");
  if (!session) return ExitCode::kUsage;
  auto& ws = *session->workspace;
  auto table = iceberg::Table::Load(ws.catalog(), ws.file_io(), *ident);
  if (!table) {
    std::string hint;
    if (table.error().kind == ErrorKind::kNotFound) {
      if (auto all = AllTables(ws.catalog())) hint = TableSuggestion(args.table, *all);
    }
    Err("databox inspect: " + table.error().message + hint + "\n");
    return ExitCode::kRunFailed;
  }
  // One read of the manifests serves the file lists and the row count.
  auto live = table->Live();
  auto read = live ? iceberg::FilesReadSql(table->schema(), live->data, live->deletes)
                   : Result<std::string>(std::unexpected(live.error()));
  if (!read) {
    Err("databox inspect: " + read.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  const auto& files = live->data;
  auto db = duck::Database::Open("");
  auto conn = duck::Connection::Open(*db);
  if (auto prepared = ws.PrepareDuckDbReads(*conn); !prepared) {
    Err("databox inspect: " + prepared.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  auto count = conn->Query("SELECT count(*) FROM (" + *read + ")");
  const int64_t rows = count ? count->GetInt64(0, 0).value_or(-1) : -1;

  nlohmann::ordered_json json;
  json["table"] = args.table;
  json["metadata_location"] = table->metadata_location();
  json["rows"] = rows;
  nlohmann::ordered_json fields = nlohmann::ordered_json::array();
  std::string text = "table " + args.table + "\nmetadata " + table->metadata_location() +
                     "\nrows " + std::to_string(rows) + "\n\nschema\n";
  const auto& ids = table->schema().identifier_field_ids();
  for (const auto& field : table->schema().fields()) {
    const bool key = std::find(ids.begin(), ids.end(), field.id) != ids.end();
    fields.push_back({{"id", field.id},
                      {"name", field.name},
                      {"type", field.type.ToString()},
                      {"required", field.required},
                      {"identifier", key}});
    text += "  " + std::to_string(field.id) + "  " + field.name + "  " + field.type.ToString() +
            (field.required ? "  required" : "") + (key ? "  key" : "") + "\n";
  }
  json["schema"] = fields;
  text += "\nsnapshots (newest first)\n";
  nlohmann::ordered_json snaps = nlohmann::ordered_json::array();
  for (const auto& s : table->History()) {
    auto get = [&](const char* k) {
      auto it = s.summary.find(k);
      return it == s.summary.end() ? std::string("-") : it->second;
    };
    snaps.push_back({{"snapshot_id", JsonInteger<nlohmann::ordered_json>(s.snapshot_id)},
                     {"timestamp_ms", s.timestamp_ms},
                     {"operation", s.operation()},
                     {"load_id", get("databox.load-id")},
                     {"added_records", get("added-records")},
                     {"total_records", get("total-records")}});
    text += "  " + std::to_string(s.snapshot_id) + "  " + s.operation() + "  load " +
            get("databox.load-id") + "  +" + get("added-records") + " rows, total " +
            get("total-records") + "\n";
  }
  json["snapshots"] = snaps;
  text += "\nfiles\n";
  nlohmann::ordered_json file_list = nlohmann::ordered_json::array();
  for (const auto& f : files) {
    file_list.push_back(
        {{"path", f.file_path}, {"records", f.record_count}, {"bytes", f.file_size_in_bytes}});
    text += "  " + f.file_path + "  " + std::to_string(f.record_count) + " rows  " +
            std::to_string(f.file_size_in_bytes) + " bytes\n";
  }
  json["files"] = file_list;
  // Merge-on-read leaves position delete files; `databox maintain --rewrite-deletes` folds them.
  nlohmann::ordered_json delete_list = nlohmann::ordered_json::array();
  if (!live->deletes.empty()) text += "\ndelete files (position deletes)\n";
  for (const auto& f : live->deletes) {
    delete_list.push_back(
        {{"path", f.file_path}, {"positions", f.record_count}, {"bytes", f.file_size_in_bytes}});
    text += "  " + f.file_path + "  " + std::to_string(f.record_count) + " deleted rows  " +
            std::to_string(f.file_size_in_bytes) + " bytes\n";
  }
  json["delete_files"] = delete_list;
  Out(args.json ? json.dump(2) + "\n" : text);
  return ExitCode::kOk;
}

}  // namespace

Command StatusCommand() {
  return Command{"status", "Show each source's last load, rows, age and last failure",
                 "Reads the run history (<state_dir>/runs.jsonl, docs/run_history.md).",
                 [](CLI::App& app) -> Runner {
                   auto json = std::make_shared<bool>(false);
                   app.add_flag("--json", *json, "machine-readable output");
                   return [json](const GlobalOptions& global) { return Status(global, *json); };
                 }};
}

Command InspectCommand() {
  return Command{"inspect", "Show a raw table: schema, snapshots, files, rows",
                 "Reads the table from the catalog: its current schema with field ids,\n"
                 "the snapshot history of main, the live data files, the position delete\n"
                 "files merge-on-read left (if any) and the row count.",
                 [](CLI::App& app) -> Runner {
                   auto args = std::make_shared<InspectArgs>();
                   app.add_option("NAMESPACE.TABLE", args->table,
                                  "the raw table, e.g. raw_noaa.daily_weather")
                       ->required();
                   app.add_flag("--json", args->json, "machine-readable output");
                   return [args](const GlobalOptions& global) { return Inspect(global, *args); };
                 }};
}

}  // namespace databox::cli
