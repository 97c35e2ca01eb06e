#include "refresh/run_history.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <fstream>

#include "common/failpoint.h"
#include "common/json_integer.h"
#include "common/redact.h"
#include "fileio/durable.h"

namespace databox::refresh {

namespace {

constexpr double kMillisPerSecond = 1000;

//! Snapshot ids are random 63-bit numbers: those beyond 2^53 are written as strings.
nlohmann::json SnapshotsToJson(const std::map<std::string, int64_t>& snapshots) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [table, id] : snapshots) out[table] = JsonInteger(id);
  return out;
}

Result<std::map<std::string, int64_t>> SnapshotsFromJson(const nlohmann::json& json) {
  std::map<std::string, int64_t> snapshots;
  for (const auto& [table, id] : json.items()) {
    DATABOX_ASSIGN_OR_RETURN(snapshots[table], IntegerFromJson(id));
  }
  return snapshots;
}

}  // namespace

nlohmann::json RunRecord::ToJson() const {
  nlohmann::json sources_json = nlohmann::json::array();
  for (const SourceRun& s : sources) {
    sources_json.push_back({{"source", s.source},
                            {"status", SourceStatusName(s.status)},
                            {"load_id", s.load_id},
                            {"phase", load::OptionalPhaseName(s.phase)},
                            {"rows", s.rows},
                            {"snapshots", SnapshotsToJson(s.snapshots)},
                            {"started_at", s.started_at},
                            {"seconds", s.seconds},
                            {"error", Redact(s.error)},
                            {"notes", s.notes}});
  }
  nlohmann::json out = {{"run_id", run_id},
                        {"command", command},
                        {"started_at", started_at},
                        {"finished_at", finished_at},
                        {"sources", sources_json},
                        {"inspection", {{"ok", inspection_ok}, {"problems", inspection_problems}}},
                        {"transform",
                         {{"status", TransformStatusName(transform_status)},
                          {"log_tail", Redact(transform_log_tail)}}},
                        {"exit_code", ExitCodeNumber(exit_code)}};
  if (transform_exit_code) out["transform"]["exit_code"] = *transform_exit_code;
  if (transform_seconds) out["transform"]["seconds"] = *transform_seconds;
  if (!transform_models.empty()) {
    nlohmann::json models = nlohmann::json::array();
    for (const ModelResult& model : transform_models) {
      nlohmann::json json = model.ToJson();
      json["error"] = Redact(model.error);
      models.push_back(std::move(json));
    }
    out["transform"]["models"] = std::move(models);
  }
  return out;
}

namespace {

// The readers below let nlohmann's exceptions (a missing key, a wrong type) reach
// RunRecord::FromJson, which turns them into errors.

Result<SourceRun> SourceRunFromJson(const nlohmann::json& s) {
  SourceRun run;
  run.source = s.at("source").get<std::string>();
  DATABOX_ASSIGN_OR_RETURN(run.status, ParseSourceStatus(s.value("status", "failed")));
  run.load_id = s.value("load_id", "");
  DATABOX_ASSIGN_OR_RETURN(run.phase, load::ParseOptionalPhase(s.value("phase", "")));
  run.rows = s.value("rows", int64_t{0});
  if (s.contains("snapshots")) {
    DATABOX_ASSIGN_OR_RETURN(run.snapshots, SnapshotsFromJson(s.at("snapshots")));
  }
  run.started_at = s.value("started_at", "");
  run.seconds = s.value("seconds", 0.0);
  run.error = s.value("error", "");
  run.notes = s.value("notes", std::vector<std::string>{});
  return run;
}

Result<RunRecord> RunRecordFromJson(const nlohmann::json& json) {
  RunRecord r;
  r.run_id = json.at("run_id").get<std::string>();
  r.command = json.value("command", "");
  r.started_at = json.value("started_at", "");
  r.finished_at = json.value("finished_at", "");
  for (const auto& s : json.at("sources")) {
    DATABOX_ASSIGN_OR_RETURN(SourceRun run, SourceRunFromJson(s));
    r.sources.push_back(std::move(run));
  }
  if (json.contains("inspection")) {
    r.inspection_ok = json["inspection"].value("ok", false);
    r.inspection_problems = json["inspection"].value("problems", std::vector<std::string>{});
  }
  if (json.contains("transform")) {
    const nlohmann::json& transform = json["transform"];
    DATABOX_ASSIGN_OR_RETURN(r.transform_status,
                             ParseTransformStatus(transform.value("status", "not_run")));
    // Records written before an interrupted transform stopped holding one have the exit code of
    // the step databox stopped; it is not SQLMesh's.
    if (transform.contains("exit_code") && r.transform_status != TransformStatus::kInterrupted) {
      r.transform_exit_code = transform["exit_code"].get<int>();
    }
    r.transform_log_tail = transform.value("log_tail", "");
    if (transform.contains("seconds")) r.transform_seconds = transform["seconds"].get<double>();
    for (const auto& model : transform.value("models", nlohmann::json::array())) {
      DATABOX_ASSIGN_OR_RETURN(ModelResult result, ModelResult::FromJson(model));
      r.transform_models.push_back(std::move(result));
    }
  }
  DATABOX_ASSIGN_OR_RETURN(r.exit_code, ParseExitCode(json.value("exit_code", 0)));
  return r;
}

}  // namespace

Result<RunRecord> RunRecord::FromJson(const nlohmann::json& json) {
  try {
    auto record = RunRecordFromJson(json);
    if (!record) return std::unexpected(record.error().WithContext("run history record"));
    return record;
  } catch (const nlohmann::json::exception& e) {
    return MakeError(ErrorKind::kData, std::string("run history record: ") + e.what());
  }
}

std::vector<RunRecord> NewestRuns(std::vector<RunRecord> records, std::size_t limit) {
  std::reverse(records.begin(), records.end());
  if (limit > 0 && records.size() > limit) records.resize(limit);
  return records;
}

std::string SourceRunEndedAt(const SourceRun& run, const RunRecord& record) {
  const auto started = IsoToMillis(run.started_at);
  if (!started || run.seconds <= 0) return record.finished_at;
  return MillisIso(*started + std::llround(run.seconds * kMillisPerSecond));
}

namespace {

//! Space kept for the next record: far more than a record needs (a few KB), so that a run
//! that filled the disk can still say what happened.
constexpr off_t kReservedBytes = 128 << 10;

//! The file holding the reserve, beside the history.
std::filesystem::path ReservePath(const std::filesystem::path& history) {
  return history.parent_path() / "runs.jsonl.reserve";
}

//! Best effort: a missing reserve only means the next append has no head start.
void Reserve(const std::filesystem::path& history) {
  const std::filesystem::path path = ReservePath(history);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return;
  const bool reserved = ::posix_fallocate(fd, 0, kReservedBytes) == 0;
  ::close(fd);
  if (!reserved) ::unlink(path.c_str());
}

}  // namespace

Status RunHistory::Append(const RunRecord& record) const {
  Failpoint("before-run-history");
  DATABOX_RETURN_IF_ERROR(fileio::CreateFoldersDurably(path_.parent_path()));
  // Frees the space the previous append kept, for this record, then keeps it again.
  ::unlink(ReservePath(path_).c_str());
  Status appended = AppendLine(record);
  Reserve(path_);
  return appended;
}

Status RunHistory::AppendLine(const RunRecord& record) const {
  const std::string line = record.ToJson().dump() + "\n";
  std::error_code ec;
  const bool existed = std::filesystem::exists(path_, ec);
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return MakeError(ErrorKind::kIo, "cannot open run history " + path_.string());
  const ssize_t written = ::write(fd, line.data(), line.size());
  // The record says what a run did: it must survive a crash right after the run reports.
  const bool synced = written == static_cast<ssize_t>(line.size()) && ::fdatasync(fd) == 0;
  const bool disk_full = !synced && errno == ENOSPC;
  ::close(fd);
  if (!synced) {
    return MakeError(ErrorKind::kIo,
                     "this run could not be recorded: cannot append to run history " +
                         path_.string() + (disk_full ? " (the disk is full)" : ""));
  }
  if (!existed) DATABOX_RETURN_IF_ERROR(fileio::SyncFolder(path_.parent_path().string()));
  return Ok();
}

Result<std::vector<RunRecord>> RunHistory::ReadAll() const {
  std::vector<RunRecord> records;
  std::ifstream in(path_);
  if (!in) return records;
  std::string line;
  while (std::getline(in, line)) {
    auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) continue;
    auto record = RunRecord::FromJson(json);
    if (record) records.push_back(std::move(*record));
  }
  return records;
}

}  // namespace databox::refresh
