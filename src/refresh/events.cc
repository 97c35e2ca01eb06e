#include "refresh/events.h"

#include <utility>

namespace databox::refresh {

RunEvents::RunEvents(std::vector<RunObserver*> subscribers) : subscribers_(std::move(subscribers)) {
  std::erase(subscribers_, nullptr);
}

void RunEvents::OnSourceStart(const SourceStart& event) {
  Each([&](RunObserver& s) { s.OnSourceStart(event); });
}

void RunEvents::OnProgress(const load::LoadProgress& progress) {
  Each([&](RunObserver& s) { s.OnProgress(progress); });
}

void RunEvents::OnSourceFinished(const SourceFinished& event) {
  Each([&](RunObserver& s) { s.OnSourceFinished(event); });
}

void RunEvents::OnPhaseStart(const PhaseStart& event) {
  Each([&](RunObserver& s) { s.OnPhaseStart(event); });
}

void RunEvents::OnPhaseEnd(const PhaseEnd& event) {
  Each([&](RunObserver& s) { s.OnPhaseEnd(event); });
}

void RunEvents::OnRunFinished(const RunRecord& record) {
  Each([&](RunObserver& s) { s.OnRunFinished(record); });
}

}  // namespace databox::refresh
