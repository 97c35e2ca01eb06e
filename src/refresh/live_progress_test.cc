// The live display reads the protocol lines a refresh prints (through the protocol's parser)
// and the load progress events, and draws one line per source plus the phase footer.
#include "refresh/live_progress.h"

#include <gtest/gtest.h>
#include <stdio.h>

#include <cstdlib>
#include <string>

namespace databox::refresh {
namespace {

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

  std::FILE* out_ = nullptr;
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
};

TEST_F(LiveProgressTest, ShowsEachSourcesStatePhaseAndCountsAndThePhaseFooter) {
  LiveProgress live(out_);
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  live.OnProtocolLine("SOURCE_START source=gbif at=2026-11-30T02:10:58.660Z");
  live.OnProgress("noaa", load::LoadPhase::kExtract, 2, 0);
  live.OnProgress("noaa", load::LoadPhase::kNormalize, 3, 10);
  live.OnProtocolLine("SOURCE_END source=noaa at=2026-11-30T02:10:59.539Z status=0 seconds=0.880");
  live.OnProtocolLine("SOURCE_END source=gbif at=2026-11-30T02:11:00.000Z status=1 seconds=1.340");
  live.OnProtocolLine("PHASE_START phase=transform at=2026-11-30T02:11:00.100Z");
  live.OnProtocolLine("PHASE_END phase=transform at=2026-11-30T02:11:09.000Z status=1");
  const std::string last_frame =
      "\x1b[2Knoaa               done 0.880s    normalize  requests=3      rows=10\n"
      "\x1b[2Kgbif               FAILED                    requests=0      rows=0\n"
      "\x1b[2Ktransform FAILED\n";
  const std::string drawn = Drawn();
  EXPECT_TRUE(drawn.ends_with("\x1b[3A" + last_frame)) << drawn;
  EXPECT_NE(drawn.find("\x1b[2Ktransform running\n"), std::string::npos) << drawn;
}

TEST_F(LiveProgressTest, ALineThatIsNotAProtocolLineChangesNothing) {
  LiveProgress live(out_);
  live.OnProtocolLine("SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z");
  live.OnProtocolLine("SOURCE_END source=noaa status=0 seconds=0.880");  // no at=
  live.OnProtocolLine("PHASE_START phase=load at=2026-11-30T02:10:58.659Z");
  const std::string frame =
      "\x1b[2Knoaa               running                   requests=0      rows=0\n";
  EXPECT_EQ(Drawn(), frame + "\x1b[1A" + frame + "\x1b[1A" + frame);
}

}  // namespace
}  // namespace databox::refresh
