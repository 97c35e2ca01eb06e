// Run history: one JSON line per `databox refresh` / `run` / `transform` / `ingest` in
// <state_dir>/runs.jsonl
// (format in docs/run_history.md). `databox status` reads it.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/error.h"
#include "common/exit_code.h"
#include "load/load_phase.h"
#include "refresh/model_results.h"
#include "refresh/run_status.h"

namespace databox::refresh {

//! A run record names phases as a load does (load/load_phase.h); modules above refresh that may
//! not include load/ (report/) name them through refresh::.
using load::OptionalPhaseName;
using load::Phase;

//! One source within a run.
struct SourceRun {
  std::string source;
  SourceStatus status = SourceStatus::kFailed;
  std::string load_id;
  std::optional<load::Phase> phase;  //!< where it failed; none while it has not
  int64_t rows = 0;
  std::map<std::string, int64_t> snapshots;  //!< table -> new snapshot id
  std::string started_at;                    //!< ISO 8601 UTC
  double seconds = 0;
  std::string error;  //!< redacted
  std::vector<std::string> notes;
};

//! The commands that append a run record, as RunRecord::command names them.
inline constexpr std::array<std::string_view, 5> kRunCommands = {"refresh", "run", "transform",
                                                                 "ingest", "publish"};

//! One run of the refresh (or of a single source, or of the transform alone).
struct RunRecord {
  std::string run_id;
  std::string command;  //!< one of kRunCommands
  std::string started_at;
  std::string finished_at;
  std::vector<SourceRun> sources;
  bool inspection_ok = false;
  std::vector<std::string> inspection_problems;
  TransformStatus transform_status = TransformStatus::kNotRun;
  std::optional<int> transform_exit_code;
  std::string transform_log_tail;
  std::optional<double> transform_seconds;    //!< how long the transform ran, when it ran
  std::vector<ModelResult> transform_models;  //!< each model's result; empty: none recorded
  ExitCode exit_code = ExitCode::kOk;

  nlohmann::json ToJson() const;
  //! A kData error when a field is missing or has the wrong type, or a status, phase or exit
  //! code is not one of docs/run_history.md.
  static Result<RunRecord> FromJson(const nlohmann::json& json);
};

//! When `run` (a source of `record`) ended: its start plus its seconds, else the record's end.
//! A source's freshness is its own load's end, not the end of the run it was part of.
std::string SourceRunEndedAt(const SourceRun& run, const RunRecord& record);

//! The newest `limit` of `records` (oldest first, as RunHistory::ReadAll returns them; all
//! when 0), newest first.
std::vector<RunRecord> NewestRuns(std::vector<RunRecord> records, std::size_t limit);

class RunHistory {
 public:
  explicit RunHistory(std::filesystem::path state_dir)
      : path_(std::move(state_dir) / "runs.jsonl") {}

  //! Appends one record (the file is created 0600; each line is written with one write call).
  //! Each append leaves a 128 KB reserve file beside the history (runs.jsonl.reserve) and the
  //! next one deletes it first, so a run that filled the disk is still recorded.
  Status Append(const RunRecord& record) const;
  //! Every record, oldest first; unreadable lines are skipped.
  Result<std::vector<RunRecord>> ReadAll() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  Status AppendLine(const RunRecord& record) const;

  std::filesystem::path path_;
};

}  // namespace databox::refresh
