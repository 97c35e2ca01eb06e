// `databox query`: SQL on the analytics DuckDB, every statement's result printed as an aligned
// table (cut to the terminal's width), CSV or JSON lines with typed values.
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/table_format.h"
#include "cli/terminal_width.h"
#include "common/exit_code.h"
#include "duck/connection.h"
#include "refresh/analytics.h"

namespace databox::cli {
namespace {

//! What `databox query` parsed.
struct QueryArgs {
  std::optional<std::string> sql;
  std::optional<std::string> file;
  std::string format = "table";
  bool json = false;
};

//! The SQL text: the argument, the file, or standard input for "-" (argument or file).
Result<std::string> ReadSql(const QueryArgs& args) {
  if (args.sql && args.file) {
    return MakeError(ErrorKind::kConfig, "give the SQL as an argument or with --file, not both");
  }
  const std::optional<std::string>& from = args.sql ? args.sql : args.file;
  if (!from) {
    return MakeError(ErrorKind::kConfig,
                     "no SQL: pass it as an argument, with --file FILE, or as - to read stdin");
  }
  if (*from == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  if (args.sql) return *args.sql;
  std::ifstream in(*args.file);
  if (!in) return MakeError(ErrorKind::kConfig, "cannot read the SQL file " + *args.file);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

ExitCode Query(const GlobalOptions& global, const QueryArgs& args) {
  auto usage = [](const Error& error) {
    Err("databox query: " + error.message + " (see `databox query --help`)\n");
    return ExitCode::kUsage;
  };
  auto format = ParseQueryFormat(args.json ? "json" : args.format);
  if (!format) return usage(format.error());
  auto sql = ReadSql(args);
  if (!sql) return usage(sql.error());
  auto session = OpenSession(global, "query");
  if (!session) return ExitCode::kUsage;
  auto analytics = refresh::OpenAnalytics(*session->workspace);
  if (!analytics) {
    Err("databox query: " + analytics.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  const auto width = StdoutWidth();
  bool first = true;
  auto ran = analytics->connection.QueryEachAtomically(*sql, [&](duck::QueryResult result) {
    if (result.column_count() == 0) return;
    if (!first && *format != QueryFormat::kJson) Out("\n");
    Out(FormatResult(result, *format, width));
    first = false;
  });
  if (!ran) {
    Err("databox query: " + ran.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  return ExitCode::kOk;
}

}  // namespace

Command QueryCommand() {
  return Command{
      "query", "Run SQL on the analytics DuckDB (raw tables under the attached alias)",
      "Raw tables are visible as <alias>.raw_<source>.<table> (alias polaris_aws by\n"
      "default): with the embedded catalog pinned to the snapshots current after the\n"
      "last load; with a REST catalog read through the catalog, attached natively in\n"
      "DuckDB (iceberg extension), so a later commit is visible at once.\n"
      "Every statement runs in order, all in one transaction, and each one's result is\n"
      "printed as it comes (tables and CSV blocks separated by a blank line; JSON as one\n"
      "object per row). A failing statement stops the query and rolls back every statement\n"
      "before it: the error names it (\"statement 2 of 3\") and DuckDB's message shows where\n"
      "in it; exit 1. SQL with its own BEGIN/COMMIT/ROLLBACK runs as written.\n"
      "table: aligned columns, cells cut at 60 characters and the widest columns narrowed\n"
      "to the terminal's width ($COLUMNS when not a terminal; not cut in a pipe).\n"
      "csv: RFC 4180, NULL as an empty field. json: one object per row; numbers, booleans,\n"
      "lists and structs keep their JSON kind; integers beyond 2^53 are strings.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<QueryArgs>();
        app.add_option("SQL", args->sql, "the SQL text, one argument (quote it); - reads stdin");
        app.add_option("-f,--file", args->file, "read the SQL from FILE (- for stdin)")
            ->option_text("FILE");
        app.add_option("--format", args->format, "table (default), csv or json")
            ->option_text("FORMAT")
            ->check(CLI::IsMember({"table", "csv", "json"}));
        app.add_flag("--json", args->json, "the same as --format json");
        return [args](const GlobalOptions& global) { return Query(global, *args); };
      }};
}

}  // namespace databox::cli
