#include "cli/commands.h"

#include "cli/command.h"

namespace databox::cli {

std::vector<Command> AllCommands() {
  std::vector<Command> commands;
  commands.push_back(ValidateCommand());
  commands.push_back(SourcesCommand());
  commands.push_back(Command{
      CommandSpec{
          "run",
          "Load one source into its raw_<source> namespace",
          "databox run SOURCE [--resume] [--file PATH] [--targets FILE]",
          "Extracts, normalizes and commits one source; prints rows written and the new\n"
          "snapshot id per table. Explicit-only sources (avonet, usfws) run only this way.",
          {{"resume", "", "finish the last load package of this source without fetching again"},
           {"file", "PATH", "avonet: the workbook to validate and publish"},
           {"targets", "FILE", "usfws: the caller-supplied target list"}},
          1,
          1},
      nullptr, "the loader is issue #4"});
  commands.push_back(Command{
      CommandSpec{
          "refresh",
          "Load every routine source concurrently, inspect, run the transform",
          "databox refresh [--source S ...] [--max-workers N] [--skip-transform] [--json]",
          "Preflight (registry, secrets, catalog, warehouse, analytics database, transform\n"
          "command), then every eligible source in a bounded worker pool, then inspection of\n"
          "this run's load status, then SQLMesh only if every source passed.",
          {{"source", "S", "refresh only this routine source", true},
           {"max-workers", "N", "how many sources load at once"},
           {"skip-transform", "", "do not run the transform command"},
           {"json", "", "print a machine-readable summary"}},
          0,
          0},
      nullptr, "refresh is issue #5"});
  commands.push_back(Command{CommandSpec{"status",
                                         "Show each source's last load, rows, age and last failure",
                                         "databox status [--json]",
                                         "",
                                         {{"json", "", "machine-readable output"}},
                                         0,
                                         0},
                             nullptr, "run history is issue #5"});
  commands.push_back(Command{CommandSpec{"inspect",
                                         "Show a raw table: schema, snapshots, files, rows",
                                         "databox inspect NAMESPACE.TABLE [--json]",
                                         "",
                                         {{"json", "", "machine-readable output"}},
                                         1,
                                         1},
                             nullptr, "inspection is issue #3"});
  commands.push_back(
      Command{CommandSpec{"query",
                          "Run SQL on the analytics DuckDB (raw tables under the attached alias)",
                          "databox query SQL [--json]",
                          "",
                          {{"json", "", "rows as JSON lines"}},
                          1,
                          1},
              nullptr, "the analytics database is issue #3"});
  commands.push_back(Command{
      CommandSpec{"catalog",
                  "Catalog administration",
                  "databox catalog bootstrap",
                  "bootstrap: create the Polaris catalog, catalog role and grants (idempotent).",
                  {},
                  1,
                  1},
      nullptr, "the Polaris management client is issue #6"});
  return commands;
}

}  // namespace databox::cli
