// The live display subscribes to a run's typed events (sources starting, their progress and
// outcome, the phases) and draws one line per source plus the phase footer. Time comes from a
// fake clock, so elapsed times are exact.
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
  static load::LoadProgress Progress(const std::string& source, load::Phase phase, int64_t requests,
                                     int64_t records) {
    return load::LoadProgress{.source = source,
                              .phase = phase,
                              .resource = "r",
                              .requests = requests,
                              .records = records};
  }

  static SourceStart Start(const std::string& source) {
    return SourceStart{.source = source, .at = "2026-11-30T02:10:58.659Z"};
  }
  static SourceFinished Finished(const std::string& source, SourceStatus status, double took) {
    SourceFinished finished{.run = {}, .at = "2026-11-30T02:10:59.539Z"};
    finished.run.source = source;
    finished.run.status = status;
    finished.run.seconds = took;
    return finished;
  }
  static PhaseStart TransformStart() {
    return PhaseStart{.phase = load::Phase::kTransform, .at = "2026-11-30T02:11:00.100Z"};
  }
  static PhaseEnd TransformEnd(bool ok) {
    return PhaseEnd{.phase = load::Phase::kTransform, .at = "2026-11-30T02:11:09.000Z", .ok = ok};
  }

  std::FILE* out_ = nullptr;
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  LiveProgress::Clock::time_point now_{};
};

TEST_F(LiveProgressTest, ShowsEachSourcesStateElapsedPhaseCountsRowsAndThePhaseFooter) {
  LiveProgress live(out_, Fake());
  live.OnSourceStart(Start("noaa"));
  live.OnSourceStart(Start("gbif"));
  live.OnProgress(Progress("noaa", load::Phase::kExtract, 2, 40));
  now_ += seconds(3);
  live.OnProgress(Progress("noaa", load::Phase::kNormalize, 3, 60));
  EXPECT_EQ(LastFrame(),
            "noaa               running 3s       normalize  requests=3      records=60\n"
            "gbif               running 3s                  requests=0      records=0\n");
  SourceFinished noaa = Finished("noaa", SourceStatus::kOk, 0.88);
  noaa.run.rows = 55;
  live.OnSourceFinished(noaa);
  live.OnSourceFinished(Finished("gbif", SourceStatus::kFailed, 1.340));
  live.OnPhaseStart(TransformStart());
  now_ += seconds(9);
  live.OnPhaseEnd(TransformEnd(false));
  EXPECT_EQ(LastFrame(),
            "noaa               done 0.880s      normalize  requests=3      records=60 rows=55\n"
            "gbif               FAILED 1.340s               requests=0      records=0\n"
            "transform FAILED 9.000s\n");
  // Each redraw first moves up over the lines it drew before.
  EXPECT_NE(Drawn().find("\x1b[3A\x1b[J"), std::string::npos);
}

TEST_F(LiveProgressTest, ElapsedTimesMoveOnEveryTick) {
  LiveProgress live(out_, Fake());
  live.OnSourceStart(Start("noaa"));
  now_ += seconds(7);
  live.Tick();
  EXPECT_EQ(LastFrame(),
            "noaa               running 7s                  requests=0      records=0\n");
  live.OnPhaseStart(TransformStart());
  now_ += seconds(12);
  live.Tick();
  EXPECT_NE(LastFrame().find("transform running 12s\n"), std::string::npos) << LastFrame();
}

TEST_F(LiveProgressTest, AFailureIsPrintedOnceAboveTheLinesWhenItHappens) {
  LiveProgress live(out_, Fake());
  live.OnSourceStart(Start("noaa"));
  live.OnSourceStart(Start("gbif"));
  SourceRun gbif;
  gbif.source = "gbif";
  gbif.status = SourceStatus::kFailed;
  gbif.phase = load::Phase::kExtract;
  gbif.error = "source gbif, resource occurrences: HTTP 500";
  live.OnSourceFinished(SourceFinished{.run = gbif, .at = "2026-11-30T02:10:59.539Z"});
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
  plain.OnSourceStart(Start("noaa"));
  plain.OnSourceFinished(Finished("noaa", SourceStatus::kOk, 0.880));
  EXPECT_EQ(Drawn().find("\x1b[3"), std::string::npos) << Drawn();

  std::fclose(out_);
  std::free(buffer_);
  buffer_ = nullptr;
  out_ = ::open_memstream(&buffer_, &size_);
  LiveProgress coloured(out_, Fake(true));
  coloured.OnSourceStart(Start("noaa"));
  EXPECT_NE(LastFrame().find("\x1b[33mrunning 0s\x1b[0m"), std::string::npos) << LastFrame();
  coloured.OnSourceFinished(Finished("noaa", SourceStatus::kFailed, 0.880));
  EXPECT_NE(LastFrame().find("\x1b[31mFAILED 0.880s\x1b[0m"), std::string::npos) << LastFrame();
}

TEST_F(LiveProgressTest, LinesAreCutToTheTerminalWidthWithoutCuttingAnEscape) {
  auto options = Fake(true);
  options.width = 40;
  LiveProgress live(out_, options);
  live.OnSourceStart(Start("noaa"));
  live.OnProgress(Progress("noaa", load::Phase::kExtract, 1, 10));
  EXPECT_EQ(LastFrame(), "noaa               \x1b[33mrunning 0s\x1b[0m       ext\n");
}

TEST_F(LiveProgressTest, WithoutPrintFailuresAFailureOnlyMarksItsLine) {
  auto options = Fake();
  options.print_failures = false;
  LiveProgress live(out_, options);
  live.OnSourceStart(Start("noaa"));
  SourceFinished failed = Finished("noaa", SourceStatus::kFailed, 0.5);
  failed.run.phase = load::Phase::kExtract;
  failed.run.error = "HTTP 500";
  live.OnSourceFinished(failed);
  EXPECT_EQ(LastFrame(),
            "noaa               FAILED 0.500s               requests=0      records=0\n");
  EXPECT_EQ(Drawn().find("HTTP 500"), std::string::npos) << Drawn();
}

TEST_F(LiveProgressTest, AnInterruptedSourceSaysSoAndPrintsNoError) {
  LiveProgress live(out_, Fake());
  live.OnSourceStart(Start("noaa"));
  SourceFinished stopped = Finished("noaa", SourceStatus::kInterrupted, 2.25);
  stopped.run.error = "noaa: interrupted by SIGINT";
  live.OnSourceFinished(stopped);
  EXPECT_EQ(LastFrame(),
            "noaa               interrupted 2.250s            requests=0      records=0\n");
  EXPECT_EQ(Drawn().find("SIGINT"), std::string::npos) << Drawn();
}

TEST_F(LiveProgressTest, AfterFinishNothingIsRedrawn) {
  LiveProgress live(out_, Fake());
  live.OnSourceStart(Start("noaa"));
  live.Finish();
  const std::size_t before = Drawn().size();
  live.Tick();
  live.OnSourceFinished(Finished("noaa", SourceStatus::kOk, 0.880));
  EXPECT_EQ(Drawn().size(), before);
}

}  // namespace
}  // namespace databox::refresh
