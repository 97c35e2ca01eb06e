#include "refresh/live_progress.h"

namespace databox::refresh {
namespace {

//! The value of `key=` in a protocol line ("" when absent).
std::string Field(std::string_view line, std::string_view key) {
  const std::string needle = std::string(key) + "=";
  auto pos = line.find(needle);
  if (pos == std::string_view::npos) return "";
  pos += needle.size();
  auto end = line.find(' ', pos);
  return std::string(line.substr(pos, end == std::string_view::npos ? end : end - pos));
}

}  // namespace

LiveProgress::Row& LiveProgress::RowFor(const std::string& source) {
  if (!rows_.contains(source)) order_.push_back(source);
  return rows_[source];
}

void LiveProgress::OnProtocolLine(std::string_view line) {
  if (line.starts_with("SOURCE_START")) {
    RowFor(Field(line, "source")).state = "running";
  } else if (line.starts_with("SOURCE_END")) {
    Row& row = RowFor(Field(line, "source"));
    row.state = Field(line, "status") == "0" ? "done " + Field(line, "seconds") + "s" : "FAILED";
  } else if (line.starts_with("PHASE_START")) {
    footer_ = Field(line, "phase") + " running";
  } else if (line.starts_with("PHASE_END")) {
    footer_ = Field(line, "phase") + (Field(line, "status") == "0" ? " done" : " FAILED");
  }
  Redraw();
}

void LiveProgress::OnProgress(const std::string& source, const std::string& phase, int64_t requests,
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
    std::fprintf(out_, "\x1b[2K%-18s %-14s %-10s requests=%-6lld rows=%lld\n", source.c_str(),
                 row.state.c_str(), row.phase.c_str(), static_cast<long long>(row.requests),
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
