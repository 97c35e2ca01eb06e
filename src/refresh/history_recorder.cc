#include "refresh/history_recorder.h"

namespace databox::refresh {

void HistoryRecorder::OnRunFinished(const RunRecord& record) {
  if (auto appended = history_.Append(record); !appended) problem_ = appended.error().message;
}

}  // namespace databox::refresh
