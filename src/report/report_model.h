// What the status page (`databox report`, docs/report.md) shows, as plain values: the sources
// with their freshness, the recent runs, the tables with their counts and the lineage from
// sources to models. Gathered by the command (cli/cmd_report.cc with report/freshness.h and
// report/lineage.h), redacted by report/redaction.h, drawn by report/html_page.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "refresh/run_history.h"

namespace databox::report {

//! How current a source's data is when the page is made.
enum class Freshness {
  kFresh,     //!< "fresh": routine, last loaded within the stale limit
  kStale,     //!< "stale": routine, last loaded longer ago than the stale limit
  kNever,     //!< "never": routine, no successful load in the run history
  kOnDemand,  //!< "on_demand": explicit-only source, loaded when named (never judged stale)
};

std::string_view FreshnessName(Freshness freshness);

//! One resource (table) a source declares.
struct ResourceState {
  std::string name;
  bool enabled = true;  //!< false: declared but not loaded (`enabled = false` in the registry)
};

//! One source of the registry with what the run history says about it.
struct SourceState {
  std::string name;
  std::string description;
  bool routine = true;  //!< false: eligibility = "explicit"
  std::vector<ResourceState> resources;
  std::string last_ok_at;                 //!< ISO 8601 UTC end of the last ok run; "" never
  std::optional<int64_t> last_ok_millis;  //!< the same, since the epoch
  int64_t last_ok_rows = 0;
  std::optional<int64_t> age_seconds;  //!< page time - last_ok_at
  std::string last_failure_at;         //!< of a failure newer than the last ok load; "" none
  std::string last_failure_error;
  Freshness freshness = Freshness::kNever;
};

//! One catalog table with the counts of its current snapshot (nullopt: not in the summary).
struct TableState {
  std::string table;  //!< "raw_noaa.daily_weather"
  std::optional<int64_t> rows;
  int64_t snapshots = 0;
  std::optional<int64_t> bytes;
  std::string snapshot_time;  //!< ISO 8601 UTC of the current snapshot; "" none
  std::string loaded_at;  //!< end of the newest ok load that committed to it (ingest too); "" none
};

//! One transform model and the raw tables its SQL names.
struct ModelReads {
  std::string model;                     //!< "analytics.fct_daily_weather"
  std::string file;                      //!< relative to the transform project
  std::vector<std::string> reads;        //!< "raw_noaa.daily_weather", sorted, unique
  std::vector<std::string> models_read;  //!< other models its SQL names, sorted, unique
};

//! How a model fared: its result in the newest transform that named it (run history
//! `transform.models`), with its newest build time from any of them.
struct ModelHealth {
  std::string model;     //!< "analytics.fct_daily_weather"
  std::string status;    //!< a refresh::ModelStatusName, or "unknown": no transform named it
  std::string built_at;  //!< ISO 8601 UTC; "" never built as far as the history says
  std::optional<int64_t> rows;
  std::string audits;
  std::string error;
  std::string run_id;  //!< of the transform that said so; "" none
};

//! The refresh `databox serve` runs on its own (--every, --at); absent for `databox report`.
struct ScheduleState {
  std::string schedule;       //!< "every 6h", "daily at 06:00 (local time)"
  std::string next_run_at;    //!< ISO 8601 UTC
  std::string running_since;  //!< ISO 8601 UTC start of the scheduled refresh running; "" none
  int64_t started = 0;        //!< scheduled refreshes started since the server started
  int64_t finished = 0;
  int64_t skipped = 0;                //!< ticks skipped because one was still running
  std::optional<int> last_exit_code;  //!< of the newest finished one
};

struct Report {
  std::string project;
  std::string generated_at;  //!< ISO 8601 UTC
  int64_t generated_millis = 0;
  int64_t stale_after_seconds = 0;
  std::vector<SourceState> sources;      //!< registry order
  std::vector<refresh::RunRecord> runs;  //!< newest first
  std::vector<TableState> tables;        //!< sorted by name
  std::string tables_problem;            //!< why the catalog could not be read; "" when it could
  std::vector<ModelReads> models;        //!< sorted by model name
  std::string models_problem;  //!< why the models could not be scanned; "" when they could
  std::optional<ScheduleState> schedule;
  std::vector<ModelHealth> model_health;  //!< failed first, then by name
  int reload_seconds = 0;  //!< > 0: the page reloads itself this often (`databox serve`)
};

}  // namespace databox::report
