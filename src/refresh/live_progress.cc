#include "refresh/live_progress.h"

#include <variant>

namespace databox::refresh {

LiveProgress::Row& LiveProgress::RowFor(const std::string& source) {
  if (!rows_.contains(source)) order_.push_back(source);
  return rows_[source];
}

void LiveProgress::OnProtocolLine(std::string_view line) {
  if (auto event = ParseProtocolLine(line)) {
    std::visit([this](const auto& e) { Apply(e); }, *event);
  }
  Redraw();
}

void LiveProgress::Apply(const SourceStart& event) { RowFor(event.source).state = "running"; }

void LiveProgress::Apply(const SourceEnd& event) {
  RowFor(event.source).state = event.ok ? "done " + SecondsText(event.seconds) + "s" : "FAILED";
}

void LiveProgress::Apply(const PhaseStart& event) {
  footer_ = std::string(ProtocolPhaseName(event.phase)) + " running";
}

void LiveProgress::Apply(const PhaseEnd& event) {
  footer_ = std::string(ProtocolPhaseName(event.phase)) + (event.ok ? " done" : " FAILED");
}

void LiveProgress::OnProgress(const std::string& source, load::LoadPhase phase, int64_t requests,
                              int64_t rows) {
  Row& row = RowFor(source);
  row.phase = phase;
  row.requests = requests;
  if (rows > 0) row.rows += rows;
  Redraw();
}

void LiveProgress::Redraw() {
  if (drawn_ > 0) std::fprintf(out_, "\x1b[%zuA", drawn_);
  std::size_t lines = 0;
  for (const std::string& source : order_) {
    const Row& row = rows_.at(source);
    const std::string phase = row.phase ? std::string(load::LoadPhaseName(*row.phase)) : "";
    std::fprintf(out_, "\x1b[2K%-18s %-14s %-10s requests=%-6lld rows=%lld\n", source.c_str(),
                 row.state.c_str(), phase.c_str(), static_cast<long long>(row.requests),
                 static_cast<long long>(row.rows));
    ++lines;
  }
  if (!footer_.empty()) {
    std::fprintf(out_, "\x1b[2K%s\n", footer_.c_str());
    ++lines;
  }
  drawn_ = lines;
  std::fflush(out_);
}

void LiveProgress::Finish() { drawn_ = 0; }

}  // namespace databox::refresh
