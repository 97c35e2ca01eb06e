#include "refresh/source_last.h"

namespace databox::refresh {

bool IsFailure(SourceStatus status) {
  return status == SourceStatus::kFailed || status == SourceStatus::kInterrupted;
}

std::map<std::string, SourceLast> LastBySource(const std::vector<RunRecord>& records) {
  std::map<std::string, SourceLast> last;
  for (const auto& record : records) {
    for (const auto& run : record.sources) {
      SourceLast& l = last[run.source];
      if (run.status == SourceStatus::kOk) {
        l.ok = {&run, SourceRunEndedAt(run, record)};
        l.failure_before_ok = l.failure.run != nullptr;
      } else if (IsFailure(run.status)) {
        l.failure = {&run, SourceRunEndedAt(run, record)};
        l.failure_before_ok = false;
      }
    }
  }
  return last;
}

}  // namespace databox::refresh
