// The live display reads the protocol lines a refresh prints (through the protocol's parser),
// the load progress events and each source's outcome, and draws one line per source plus the
// phase footer. Time comes from a fake clock, so elapsed times are exact.
#include "refresh/live_progress.h"

#include <gtest/gtest.h>
#include <stdio.h>

#include <chrono>
#include <cstdlib>
#include <string>

namespace databox::refresh {
namespace {

using std::chrono::seconds;

class LiveProgressTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = ::open_memstream(&buffer_, &size_);
    ASSERT_NE(out_, nullptr);
  }
  void TearDown() override {
    if (out_ != nullptr) std::fclose(out_);
    std::free(buffer_);
  }
  //! Everything drawn so far.
  std::string Drawn() {
    std::fflush(out_);
    return std::string(buffer_, size_);
  }
  //! What was drawn after the last redraw began (cursor up + clear), without that escape.
  std::string LastFrame() {
    const std::string drawn = Drawn();
    const auto at = drawn.rfind("\x1b[J");
    return at == std::string::npos ? drawn : drawn.substr(at + 3);
  }
  LiveProgress::Options Fake(bool colour = false) {
    return LiveProgress::Options{
        .colour = colour, .width = std::nullopt, .now = [this] { return now_; }};
  }
  static load::LoadProgress Progress(const std::string& source, load::LoadPhase phase,
                                     int64_t requests, int64_t records) {
    return load::LoadProgress{.source = source,
                              .phase = phase,
                              .resource = "r",
                              .requests = requests,
                              .records = records};
  }

  std::FILE* out_ = nullptr;
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  LiveProgress::Clock::time_point now_{};
};

TEST_F(LiveProgressTest, ShowsEachSourcesStateElapsedPhaseCountsRowsAndThePhaseFooter) {
  LiveProgress live(out_, Fake());
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  live.OnProtocolLine("SOURCE_START source=gbif at=2026-11-30T02:10:58.660Z");
  live.OnProgress(Progress("noaa", load::LoadPhase::kExtract, 2, 40));
  now_ += seconds(3);
  live.OnProgress(Progress("noaa", load::LoadPhase::kNormalize, 3, 60));
  EXPECT_EQ(LastFrame(),
            "noaa               running 3s       normalize  requests=3      records=60\n"
            "gbif               running 3s                  requests=0      records=0\n");
  SourceRun noaa;
  noaa.source = "noaa";
  noaa.status = SourceStatus::kOk;
  noaa.rows = 55;
  noaa.seconds = 0.88;
  live.OnSourceFinished(noaa);
  live.OnProtocolLine("SOURCE_END source=noaa at=2026-11-30T02:10:59.539Z status=0 seconds=0.880");
  live.OnProtocolLine("SOURCE_END source=gbif at=2026-11-30T02:11:00.000Z status=1 seconds=1.340");
  live.OnProtocolLine("PHASE_START phase=transform at=2026-11-30T02:11:00.100Z");
  now_ += seconds(9);
  live.OnProtocolLine("PHASE_END phase=transform at=2026-11-30T02:11:09.000Z status=1");
  EXPECT_EQ(LastFrame(),
            "noaa               done 0.880s      normalize  requests=3      records=60 rows=55\n"
            "gbif               FAILED 1.340s               requests=0      records=0\n"
            "transform FAILED 9.000s\n");
  // Each redraw first moves up over the lines it drew before.
  EXPECT_NE(Drawn().find("\x1b[3A\x1b[J"), std::string::npos);
}

TEST_F(LiveProgressTest, ElapsedTimesMoveOnEveryTick) {
  LiveProgress live(out_, Fake());
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  now_ += seconds(7);
  live.Tick();
  EXPECT_EQ(LastFrame(),
            "noaa               running 7s                  requests=0      records=0\n");
  live.OnProtocolLine("PHASE_START phase=transform at=2026-11-30T02:11:00.100Z");
  now_ += seconds(12);
  live.Tick();
  EXPECT_NE(LastFrame().find("transform running 12s\n"), std::string::npos) << LastFrame();
}

TEST_F(LiveProgressTest, AFailureIsPrintedOnceAboveTheLinesWhenItHappens) {
  LiveProgress live(out_, Fake());
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  live.OnProtocolLine("SOURCE_START source=gbif at=2026-11-30T02:10:58.660Z");
  SourceRun gbif;
  gbif.source = "gbif";
  gbif.status = SourceStatus::kFailed;
  gbif.phase = SourcePhase::kExtract;
  gbif.error = "source gbif, resource occurrences: HTTP 500";
  live.OnSourceFinished(gbif);
  // The error comes first in the frame, then the live lines; noaa is still running.
  EXPECT_EQ(LastFrame(),
            "gbif FAILED [extract] source gbif, resource occurrences: HTTP 500\n"
            "noaa               running 0s                  requests=0      records=0\n"
            "gbif               FAILED 0.000s               requests=0      records=0\n");
  live.Tick();
  const std::string drawn = Drawn();
  EXPECT_EQ(drawn.find("HTTP 500"), drawn.rfind("HTTP 500")) << "printed once: " << drawn;
}

TEST_F(LiveProgressTest, ColourMarksStatesOnlyWhenAskedFor) {
  LiveProgress plain(out_, Fake(false));
  plain.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  plain.OnProtocolLine("SOURCE_END source=noaa at=2026-11-30T02:10:59.539Z status=0 seconds=0.880");
  EXPECT_EQ(Drawn().find("\x1b[3"), std::string::npos) << Drawn();

  std::fclose(out_);
  std::free(buffer_);
  buffer_ = nullptr;
  out_ = ::open_memstream(&buffer_, &size_);
  LiveProgress coloured(out_, Fake(true));
  coloured.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  EXPECT_NE(LastFrame().find("\x1b[33mrunning 0s\x1b[0m"), std::string::npos) << LastFrame();
  coloured.OnProtocolLine(
      "SOURCE_END source=noaa at=2026-11-30T02:10:59.539Z status=1 seconds=0.880");
  EXPECT_NE(LastFrame().find("\x1b[31mFAILED 0.880s\x1b[0m"), std::string::npos) << LastFrame();
}

TEST_F(LiveProgressTest, LinesAreCutToTheTerminalWidthWithoutCuttingAnEscape) {
  auto options = Fake(true);
  options.width = 40;
  LiveProgress live(out_, options);
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  live.OnProgress(Progress("noaa", load::LoadPhase::kExtract, 1, 10));
  EXPECT_EQ(LastFrame(), "noaa               \x1b[33mrunning 0s\x1b[0m       ext\n");
}

TEST_F(LiveProgressTest, ALineThatIsNotAProtocolLineChangesNothing) {
  LiveProgress live(out_, Fake());
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  const std::string frame =
      "noaa               running 0s                  requests=0      records=0\n";
  EXPECT_EQ(LastFrame(), frame);
  live.OnProtocolLine("SOURCE_END source=noaa status=0 seconds=0.880");  // no at=
  live.OnProtocolLine("PHASE_START phase=load at=2026-11-30T02:10:58.659Z");
  EXPECT_EQ(LastFrame(), frame);
}

TEST_F(LiveProgressTest, AfterFinishNothingIsRedrawn) {
  LiveProgress live(out_, Fake());
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  live.Finish();
  const std::size_t before = Drawn().size();
  live.Tick();
  live.OnProtocolLine("SOURCE_END source=noaa at=2026-11-30T02:10:59.539Z status=0 seconds=0.880");
  EXPECT_EQ(Drawn().size(), before);
}

}  // namespace
}  // namespace databox::refresh
