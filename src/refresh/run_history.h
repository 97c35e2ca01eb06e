// Run history: one JSON line per `databox refresh` / `databox run` in <state_dir>/runs.jsonl
// (format in docs/run_history.md). `databox status` reads it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/error.h"

namespace databox::refresh {

//! One source within a run.
struct SourceRun {
  std::string source;
  std::string status = "failed";  //!< ok | failed | not_started
  std::string load_id;
  std::string phase;  //!< where it failed (extract, normalize, commit, inspection)
  int64_t rows = 0;
  std::map<std::string, int64_t> snapshots;  //!< table -> new snapshot id
  std::string started_at;                    //!< ISO 8601 UTC
  double seconds = 0;
  std::string error;  //!< redacted
  std::vector<std::string> notes;
};

//! One run of the refresh (or of a single source).
struct RunRecord {
  std::string run_id;
  std::string command;  //!< refresh | run
  std::string started_at;
  std::string finished_at;
  std::vector<SourceRun> sources;
  bool inspection_ok = false;
  std::vector<std::string> inspection_problems;
  std::string transform_status = "not_run";  //!< ok | failed | not_run | skipped
  std::optional<int> transform_exit_code;
  std::string transform_log_tail;
  int exit_code = 0;

  nlohmann::json ToJson() const;
  static Result<RunRecord> FromJson(const nlohmann::json& json);
};

class RunHistory {
 public:
  explicit RunHistory(std::filesystem::path state_dir)
      : path_(std::move(state_dir) / "runs.jsonl") {}

  //! Appends one record (the file is created 0600; each line is written with one write call).
  Status Append(const RunRecord& record) const;
  //! Every record, oldest first; unreadable lines are skipped.
  Result<std::vector<RunRecord>> ReadAll() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace databox::refresh
