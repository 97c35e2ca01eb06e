#include "report/freshness.h"

#include <map>
#include <string>

#include "common/clock.h"
#include "common/enum_names.h"
#include "refresh/source_last.h"

namespace databox::report {
namespace {

Freshness Judge(const SourceState& state, int64_t stale_after_seconds) {
  if (!state.routine) return Freshness::kOnDemand;
  if (!state.age_seconds) return Freshness::kNever;
  return *state.age_seconds > stale_after_seconds ? Freshness::kStale : Freshness::kFresh;
}

}  // namespace

std::string_view FreshnessName(Freshness freshness) {
  static constexpr EnumNames<Freshness, 4> kNames{{{Freshness::kFresh, "fresh"},
                                                   {Freshness::kStale, "stale"},
                                                   {Freshness::kNever, "never"},
                                                   {Freshness::kOnDemand, "on_demand"}}};
  static_assert(DistinctNames(kNames));
  return NameOf(kNames, freshness, "never");
}

std::vector<SourceState> SourceStates(const registry::Registry& registry,
                                      const std::vector<refresh::RunRecord>& records,
                                      int64_t now_millis, int64_t stale_after_seconds) {
  const auto last = refresh::LastBySource(records);
  std::vector<SourceState> states;
  for (const auto& source : registry.sources) {
    SourceState state;
    state.name = source.name;
    state.description = source.description;
    state.routine = source.eligibility == registry::Eligibility::kRoutine;
    for (const auto& resource : source.resources) {
      state.resources.push_back({resource.name, resource.enabled});
    }
    if (auto it = last.find(source.name); it != last.end()) {
      const refresh::SourceLast& l = it->second;
      if (l.ok.run) {
        state.last_ok_at = l.ok.ended_at;
        state.last_ok_rows = l.ok.run->rows;
        state.last_ok_millis = IsoToMillis(l.ok.ended_at);
        if (state.last_ok_millis) {
          state.age_seconds = (now_millis - *state.last_ok_millis) / kMillisPerSecond;
        }
      }
      // Only a failure after the last ok load is news on the page.
      if (l.FailureIsCurrent()) {
        state.last_failure_at = l.failure.ended_at;
        state.last_failure_error = l.failure.run->error;
      }
    }
    state.freshness = Judge(state, stale_after_seconds);
    states.push_back(std::move(state));
  }
  return states;
}

std::map<std::string, std::string> TableLoadTimes(const std::vector<refresh::RunRecord>& records) {
  std::map<std::string, std::string> times;
  for (const auto& record : records) {
    for (const auto& run : record.sources) {
      if (run.status != refresh::SourceStatus::kOk) continue;
      for (const auto& [table, snapshot] : run.snapshots) {
        times[table] = refresh::SourceRunEndedAt(run, record);
      }
    }
  }
  return times;
}

}  // namespace databox::report
