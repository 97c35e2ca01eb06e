// `databox inspect NAMESPACE.TABLE`: loads the table, reads its live files and counts its live
// rows in DuckDB; what it prints is table_inspection.h.
#include <memory>
#include <string>

#include "cli/catalog_tables.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/table_inspection.h"
#include "common/exit_code.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/data/scan_sql.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::cli {
namespace {

//! What `databox inspect` parsed.
struct InspectArgs {
  std::string table;
  bool json = false;
};

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
  auto db = duck::Database::Open("");
  auto conn = duck::Connection::Open(*db);
  if (auto prepared = ws.PrepareDuckDbReads(*conn); !prepared) {
    Err("databox inspect: " + prepared.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  auto count = conn->Query("SELECT count(*) FROM (" + *read + ")");
  TableInspection inspection{args.table,        table->metadata_location(),
                             table->metadata(), table->History(),
                             std::move(*live),  count ? count->GetInt64(0, 0).value_or(-1) : -1};
  Out(args.json ? InspectionJson(inspection).dump(2) + "\n" : FormatInspection(inspection));
  return ExitCode::kOk;
}

}  // namespace

Command InspectCommand() {
  return Command{
      "inspect", "Show a raw table: format, layout, sizes, schema, snapshots, files, rows",
      "Reads the table from the catalog: its format version, UUID, location and metadata\n"
      "file, its partition specs and sort order (with source column names), its properties,\n"
      "the live data and delete files' count and bytes, the current schema with field ids,\n"
      "the snapshot history of main (time in UTC and each snapshot's summary: files, rows and\n"
      "bytes added and removed), the live data files, the position delete files merge-on-read\n"
      "left (if any) and the live row count. Snapshot ids beyond 2^53 are strings in --json.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<InspectArgs>();
        app.add_option("NAMESPACE.TABLE", args->table, "the raw table, e.g. raw_noaa.daily_weather")
            ->required();
        app.add_flag("--json", args->json, "machine-readable output");
        return [args](const GlobalOptions& global) { return Inspect(global, *args); };
      }};
}

}  // namespace databox::cli
