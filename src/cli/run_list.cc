#include "cli/run_list.h"

#include <algorithm>

#include "cli/table_format.h"
#include "common/json_integer.h"
#include "load/load_phase.h"

namespace databox::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr int64_t kMillisPerSecond = 1000;
constexpr std::size_t kIdsInNotFound = 5;

struct Counts {
  int ok = 0;
  int failed = 0;
  int not_started = 0;
  int interrupted = 0;
};

Counts CountSources(const refresh::RunRecord& record) {
  Counts counts;
  for (const auto& source : record.sources) {
    if (source.status == refresh::SourceStatus::kOk) ++counts.ok;
    if (source.status == refresh::SourceStatus::kFailed) ++counts.failed;
    if (source.status == refresh::SourceStatus::kNotStarted) ++counts.not_started;
    if (source.status == refresh::SourceStatus::kInterrupted) ++counts.interrupted;
  }
  return counts;
}

std::optional<int64_t> DurationMillis(const refresh::RunRecord& record) {
  const auto start = IsoToMillis(record.started_at);
  const auto end = IsoToMillis(record.finished_at);
  if (!start || !end || *end < *start) return std::nullopt;
  return *end - *start;
}

std::string DurationText(const refresh::RunRecord& record) {
  const auto millis = DurationMillis(record);
  return millis ? FormatDuration(*millis) : "-";
}

std::string CountsText(const Counts& counts) {
  std::string text =
      std::to_string(counts.ok) + " ok, " + std::to_string(counts.failed) + " failed";
  if (counts.interrupted > 0) text += ", " + std::to_string(counts.interrupted) + " interrupted";
  if (counts.not_started > 0) text += ", " + std::to_string(counts.not_started) + " not started";
  return text;
}

Json SnapshotsJson(const std::map<std::string, int64_t>& snapshots) {
  Json out = Json::object();
  for (const auto& [table, id] : snapshots) out[table] = JsonInteger<Json>(id);
  return out;
}

Json SummaryJson(const refresh::RunRecord& record) {
  const Counts counts = CountSources(record);
  const auto millis = DurationMillis(record);
  return Json{{"run_id", record.run_id},
              {"command", record.command},
              {"started_at", record.started_at},
              {"finished_at", record.finished_at},
              {"seconds", millis ? Json(static_cast<double>(*millis) / kMillisPerSecond) : Json()},
              {"status", RunOutcomeName(record.exit_code)},
              {"exit_code", ExitCodeNumber(record.exit_code)},
              {"sources_ok", counts.ok},
              {"sources_failed", counts.failed},
              {"sources_not_started", counts.not_started},
              {"sources_interrupted", counts.interrupted}};
}

std::string SourceTrace(const refresh::SourceRun& source) {
  std::string text =
      "  " + source.source + ": " + std::string(refresh::SourceStatusName(source.status));
  if ((source.status == refresh::SourceStatus::kFailed ||
       source.status == refresh::SourceStatus::kInterrupted) &&
      source.phase) {
    text += " in " + std::string(load::PhaseName(*source.phase));
  }
  text += "\n";
  if (source.status == refresh::SourceStatus::kNotStarted) return text;
  if (!source.load_id.empty()) text += "    load id   " + source.load_id + "\n";
  if (!source.started_at.empty()) text += "    started   " + source.started_at + "\n";
  text += "    rows      " + std::to_string(source.rows) + "\n";
  for (const auto& [table, id] : source.snapshots) {
    text += "    snapshot  " + table + " " + std::to_string(id) + "\n";
  }
  if (!source.error.empty()) text += "    error     " + source.error + "\n";
  for (const auto& note : source.notes) text += "    note      " + note + "\n";
  return text;
}

//! A transform alone loads no source: its column says so instead of "0 ok, 0 failed".
std::string SourcesColumn(const refresh::RunRecord& record) {
  if (record.command == "transform") return "- (transform only)";
  return CountsText(CountSources(record));
}

//! The transform section of a trace: status, exit code, seconds and the log tail, indented.
std::string TransformTrace(const refresh::RunRecord& record) {
  std::string text =
      "\ntransform\n  " + std::string(refresh::TransformStatusName(record.transform_status));
  if (record.transform_exit_code) {
    text += " (exit " + std::to_string(*record.transform_exit_code) + ")";
  }
  if (record.transform_seconds) {
    text += " in " + FormatDuration(static_cast<int64_t>(*record.transform_seconds * 1000));
  }
  text += "\n";
  if (!record.transform_log_tail.empty()) {
    text += "  log tail:\n";
    std::size_t start = 0;
    while (start < record.transform_log_tail.size()) {
      std::size_t end = record.transform_log_tail.find('\n', start);
      if (end == std::string::npos) end = record.transform_log_tail.size();
      text += "    " + record.transform_log_tail.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  return text;
}

}  // namespace

std::string FormatRunList(const std::vector<refresh::RunRecord>& records) {
  if (records.empty()) return "no runs recorded yet\n";
  std::vector<std::vector<std::string>> rows = {
      {"RUN ID", "COMMAND", "STARTED", "DURATION", "STATUS", "SOURCES"}};
  for (const auto& record : records) {
    rows.push_back({record.run_id, record.command, record.started_at, DurationText(record),
                    std::string(RunOutcomeName(record.exit_code)), SourcesColumn(record)});
  }
  return AlignRows(rows);
}

Json RunListJson(const std::vector<refresh::RunRecord>& records) {
  Json out = Json::array();
  for (const auto& record : records) out.push_back(SummaryJson(record));
  return out;
}

std::string FormatRunTrace(const refresh::RunRecord& record) {
  std::string text = "run " + record.run_id + " (" + record.command + ")\n" + "  status    " +
                     std::string(RunOutcomeName(record.exit_code)) + " (exit " +
                     std::to_string(ExitCodeNumber(record.exit_code)) + ")\n" + "  started   " +
                     record.started_at + "\n" + "  finished  " + record.finished_at + "\n" +
                     "  duration  " + DurationText(record) + "\n";
  if (record.command == "transform") return text + TransformTrace(record);
  text += "  sources   " + CountsText(CountSources(record)) + "\n\nsources\n";
  if (record.sources.empty()) text += "  (none)\n";
  for (const auto& source : record.sources) text += SourceTrace(source);
  if (record.command == "refresh") {
    text += "\ninspection\n  " + std::string(record.inspection_ok ? "ok" : "not passed") + "\n";
    for (const auto& problem : record.inspection_problems) text += "  problem: " + problem + "\n";
    text += TransformTrace(record);
  }
  if (record.command == "publish") {
    text += "\nread-back\n  " + std::string(record.inspection_ok ? "ok" : "not passed") + "\n";
    for (const auto& problem : record.inspection_problems) text += "  problem: " + problem + "\n";
  }
  return text;
}

Json RunTraceJson(const refresh::RunRecord& record) {
  Json out = SummaryJson(record);
  Json sources = Json::array();
  for (const auto& source : record.sources) {
    sources.push_back({{"source", source.source},
                       {"status", refresh::SourceStatusName(source.status)},
                       {"phase", load::OptionalPhaseName(source.phase)},
                       {"load_id", source.load_id},
                       {"started_at", source.started_at},
                       {"rows", source.rows},
                       {"snapshots", SnapshotsJson(source.snapshots)},
                       {"error", source.error},
                       {"notes", source.notes}});
  }
  out["sources"] = sources;
  out["inspection"] = {{"ok", record.inspection_ok}, {"problems", record.inspection_problems}};
  out["transform"] = {
      {"status", refresh::TransformStatusName(record.transform_status)},
      {"exit_code", record.transform_exit_code ? Json(*record.transform_exit_code) : Json()},
      {"seconds", record.transform_seconds ? Json(*record.transform_seconds) : Json()},
      {"log_tail", record.transform_log_tail}};
  return out;
}

Result<refresh::RunRecord> FindRun(const std::vector<refresh::RunRecord>& records,
                                   std::string_view run_id) {
  const refresh::RunRecord* found = nullptr;
  int prefixed = 0;
  for (const auto& record : records) {
    if (record.run_id == run_id) return record;
    if (!run_id.empty() && record.run_id.starts_with(run_id)) {
      found = &record;
      ++prefixed;
    }
  }
  if (prefixed == 1) return *found;
  if (prefixed > 1) {
    return MakeError(ErrorKind::kConfig, std::to_string(prefixed) +
                                             " runs have ids starting with '" +
                                             std::string(run_id) + "': give more of the id");
  }
  std::string newest;
  const auto listed = refresh::NewestRuns(records, kIdsInNotFound);
  for (const auto& record : listed) newest += (newest.empty() ? "" : ", ") + record.run_id;
  return MakeError(ErrorKind::kNotFound,
                   "no run with id '" + std::string(run_id) + "' in the run history" +
                       (newest.empty() ? std::string(" (no runs recorded yet)")
                                       : " (newest: " + newest + "; see `databox runs`)"));
}

}  // namespace databox::cli
