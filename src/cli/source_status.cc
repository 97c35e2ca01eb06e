#include "cli/source_status.h"

#include <map>
#include <optional>

#include "common/clock.h"
#include "load/load_phase.h"
#include "refresh/source_last.h"

namespace databox::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr int64_t kMinute = 60;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;
//! From this many days on, an age is days only.
constexpr int64_t kDaysOnly = 3;

//! The transform of the newest refresh or `databox transform`, and of the newest of those whose
//! transform ran.
struct TransformLast {
  const refresh::RunRecord* newest = nullptr;
  const refresh::RunRecord* ran = nullptr;
};

bool TransformRan(const refresh::RunRecord& record) {
  return record.transform_status == refresh::TransformStatus::kOk ||
         record.transform_status == refresh::TransformStatus::kFailed;
}

TransformLast LastTransform(const std::vector<refresh::RunRecord>& records) {
  TransformLast last;
  for (const auto& record : records) {
    // `databox run` never runs the transform.
    if (record.command != "refresh" && record.command != "transform") continue;
    last.newest = &record;
    if (TransformRan(record)) last.ran = &record;
  }
  return last;
}

//! Seconds from the time `iso` to `now_ms`; -1 when `iso` is not a time.
int64_t AgeSeconds(const std::string& iso, int64_t now_ms) {
  const std::optional<int64_t> then = IsoToMillis(iso);
  return then ? (now_ms - *then) / 1000 : -1;
}

std::string At(const std::string& iso, int64_t now_ms) {
  return iso + " (" + FormatAge(AgeSeconds(iso, now_ms)) + ")";
}

Json TransformJson(const refresh::RunRecord& record, int64_t now_ms) {
  return Json{
      {"status", TransformOutcome(record)},
      {"run_id", record.run_id},
      {"at", record.finished_at},
      {"age_seconds", AgeSeconds(record.finished_at, now_ms)},
      {"exit_code", record.transform_exit_code ? Json(*record.transform_exit_code) : Json()}};
}

//! "failed (exit 1) at T (2 h ago), run R"
std::string TransformText(const refresh::RunRecord& record, int64_t now_ms) {
  std::string text = TransformOutcome(record);
  if (record.transform_exit_code)
    text += " (exit " + std::to_string(*record.transform_exit_code) + ")";
  return text + " at " + At(record.finished_at, now_ms) + ", run " + record.run_id;
}

std::string Plural(int64_t n, const char* unit) {
  return std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
}

}  // namespace

std::string FormatAge(int64_t seconds) {
  if (seconds < 0) return "age unknown";
  if (seconds < kMinute) return std::to_string(seconds) + " s ago";
  if (seconds < kHour) return std::to_string(seconds / kMinute) + " min ago";
  if (seconds < kDay) {
    const int64_t minutes = seconds % kHour / kMinute;
    return std::to_string(seconds / kHour) + " h" +
           (minutes > 0 ? " " + std::to_string(minutes) + " min" : "") + " ago";
  }
  const int64_t days = seconds / kDay;
  const int64_t hours = seconds % kDay / kHour;
  if (days >= kDaysOnly || hours == 0) return Plural(days, "day") + " ago";
  return Plural(days, "day") + " " + std::to_string(hours) + " h ago";
}

std::string TransformOutcome(const refresh::RunRecord& record) {
  return std::string(refresh::TransformStatusName(record.transform_status));
}

std::string FormatStatus(const std::vector<std::string>& sources,
                         const std::vector<refresh::RunRecord>& records, int64_t now_ms) {
  const auto last = refresh::LastBySource(records);
  std::string text;
  for (const std::string& source : sources) {
    text += source + ":\n";
    const auto it = last.find(source);
    const refresh::SourceLast l = it == last.end() ? refresh::SourceLast{} : it->second;
    if (l.ok.run) {
      text += "  last load: " + l.ok.run->load_id + "  rows=" + std::to_string(l.ok.run->rows) +
              "  at " + At(l.ok.ended_at, now_ms) + "\n";
    } else {
      text += "  last load: never\n";
    }
    if (l.failure.run) {
      text += "  last failure: " + At(l.failure.ended_at, now_ms) + " [" +
              std::string(load::OptionalPhaseName(l.failure.run->phase)) + "] " +
              l.failure.run->error + "\n";
    }
  }
  const TransformLast transform = LastTransform(records);
  if (transform.newest == nullptr) return text + "transform: never run (no refresh recorded)\n";
  text += "transform: " + TransformText(*transform.newest, now_ms) + "\n";
  if (transform.ran != transform.newest) {
    text += "  last ran: " +
            (transform.ran ? TransformText(*transform.ran, now_ms) : std::string("never")) + "\n";
  }
  return text;
}

Json StatusJson(const std::vector<std::string>& sources,
                const std::vector<refresh::RunRecord>& records, int64_t now_ms) {
  const auto last = refresh::LastBySource(records);
  Json list = Json::array();
  for (const std::string& source : sources) {
    const auto it = last.find(source);
    const refresh::SourceLast l = it == last.end() ? refresh::SourceLast{} : it->second;
    Json entry = {{"source", source}, {"last_load", nullptr}, {"last_failure", nullptr}};
    if (const refresh::SourceRun* ok = l.ok.run) {
      entry["last_load"] = {{"load_id", ok->load_id},
                            {"rows", ok->rows},
                            {"completed_at", l.ok.ended_at},
                            {"age_seconds", AgeSeconds(l.ok.ended_at, now_ms)}};
    }
    if (const refresh::SourceRun* failed = l.failure.run) {
      entry["last_failure"] = {{"at", l.failure.ended_at},
                               {"age_seconds", AgeSeconds(l.failure.ended_at, now_ms)},
                               {"phase", std::string(load::OptionalPhaseName(failed->phase))},
                               {"error", failed->error},
                               {"current", l.FailureIsCurrent()}};
    }
    list.push_back(entry);
  }
  Json out = {{"sources", list}, {"transform", nullptr}};
  const TransformLast transform = LastTransform(records);
  if (transform.newest != nullptr) {
    out["transform"] = TransformJson(*transform.newest, now_ms);
    out["transform"]["last_ran"] = transform.ran ? TransformJson(*transform.ran, now_ms) : Json();
  }
  return out;
}

}  // namespace databox::cli
