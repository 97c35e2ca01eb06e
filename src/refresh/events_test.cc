// A run's events reach every subscriber in order, and the protocol printer turns them into the
// protocol lines of docs/refresh.md (the only text form, for other processes).
#include "refresh/events.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "refresh/protocol.h"
#include "refresh/protocol_printer.h"

namespace databox::refresh {
namespace {

constexpr const char* kAt = "2026-11-30T02:10:58.659Z";

//! Writes down what it heard, one word per event.
class Journal final : public RunObserver {
 public:
  void OnSourceStart(const SourceStart& e) override { heard.push_back("start " + e.source); }
  void OnProgress(const load::LoadProgress& p) override { heard.push_back("progress " + p.source); }
  void OnSourceFinished(const SourceFinished& e) override {
    heard.push_back("finished " + e.run.source + " " + std::string(SourceStatusName(e.run.status)));
  }
  void OnPhaseStart(const PhaseStart& e) override {
    heard.push_back("phase " + std::string(load::PhaseName(e.phase)));
  }
  void OnPhaseEnd(const PhaseEnd& e) override {
    heard.push_back(e.ok ? "phase ok" : "phase failed");
  }
  void OnRunFinished(const RunRecord& r) override { heard.push_back("run " + r.command); }

  std::vector<std::string> heard;
};

SourceFinished Finished(const std::string& source, SourceStatus status, double seconds) {
  SourceFinished finished{.run = {}, .at = kAt};
  finished.run.source = source;
  finished.run.status = status;
  finished.run.seconds = seconds;
  return finished;
}

//! Sends one of every event to `events`.
void SendOneOfEach(RunObserver& events) {
  events.OnSourceStart(SourceStart{.source = "noaa", .at = kAt});
  events.OnProgress(load::LoadProgress{.source = "noaa",
                                       .phase = load::Phase::kExtract,
                                       .resource = "r",
                                       .requests = 1,
                                       .records = 2});
  events.OnSourceFinished(Finished("noaa", SourceStatus::kOk, 0.88));
  events.OnSourceFinished(Finished("gbif", SourceStatus::kInterrupted, 12.5));
  events.OnPhaseStart(PhaseStart{.phase = load::Phase::kTransform, .at = kAt});
  events.OnPhaseEnd(PhaseEnd{.phase = load::Phase::kTransform, .at = kAt, .ok = false});
  RunRecord record;
  record.command = "refresh";
  events.OnRunFinished(record);
}

TEST(RunEventsTest, EverySubscriberHearsEveryEventInOrderAndNullOnesAreLeftOut) {
  Journal first;
  Journal second;
  RunEvents events({&first, nullptr, &second});
  SendOneOfEach(events);
  const std::vector<std::string> expected = {
      "start noaa",      "progress noaa", "finished noaa ok", "finished gbif interrupted",
      "phase transform", "phase failed",  "run refresh"};
  EXPECT_EQ(first.heard, expected);
  EXPECT_EQ(second.heard, expected);
}

TEST(ProtocolPrinterTest, PrintsTheProtocolLineOfEachEventAndNothingForProgressOrTheRecord) {
  std::vector<std::string> lines;
  ProtocolPrinter printer([&](std::string_view line) { lines.emplace_back(line); });
  SendOneOfEach(printer);
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z",
                       "SOURCE_END source=noaa at=2026-11-30T02:10:58.659Z status=0 seconds=0.880",
                       "SOURCE_END source=gbif at=2026-11-30T02:10:58.659Z status=1 seconds=12.500",
                       "PHASE_START phase=transform at=2026-11-30T02:10:58.659Z",
                       "PHASE_END phase=transform at=2026-11-30T02:10:58.659Z status=1",
                   }));
  // Every printed line reads back with the protocol's parser (for readers in other processes).
  for (const std::string& line : lines) EXPECT_TRUE(ParseProtocolLine(line).has_value()) << line;
}

}  // namespace
}  // namespace databox::refresh
