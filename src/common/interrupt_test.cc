// The interrupt flag: a delivered SIGINT or SIGTERM is recorded, not acted on, and turns the
// next safe-point check into an error that IsInterruption recognizes.
#include "common/interrupt.h"

#include <gtest/gtest.h>

#include <csignal>

namespace databox {
namespace {

class InterruptTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearInterruptForTest(); }
  void TearDown() override {
    ClearInterruptForTest();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
  }
};

TEST_F(InterruptTest, NothingIsRecordedBeforeASignal) {
  InstallInterruptHandlers();
  EXPECT_EQ(InterruptSignal(), 0);
  EXPECT_TRUE(CheckInterrupted("source noaa").has_value());
  EXPECT_FALSE(IsInterruption(Error{ErrorKind::kNetwork, "HTTP 500"}));
}

TEST_F(InterruptTest, SigintIsRecordedAndTheProcessGoesOn) {
  InstallInterruptHandlers();
  ASSERT_EQ(std::raise(SIGINT), 0);  // without the handler this would end the test program
  EXPECT_EQ(InterruptSignal(), SIGINT);
  const Status checked = CheckInterrupted("source noaa, resource daily");
  ASSERT_FALSE(checked.has_value());
  EXPECT_TRUE(IsInterruption(checked.error()));
  EXPECT_EQ(checked.error().message, "source noaa, resource daily: interrupted by SIGINT");
}

TEST_F(InterruptTest, SigtermIsRecordedByName) {
  InstallInterruptHandlers();
  ASSERT_EQ(std::raise(SIGTERM), 0);
  EXPECT_EQ(InterruptSignal(), SIGTERM);
  EXPECT_EQ(SignalName(InterruptSignal()), "SIGTERM");
}

TEST_F(InterruptTest, TheHandlerIsOneShot) {
  InstallInterruptHandlers();
  ASSERT_EQ(std::raise(SIGINT), 0);
  struct sigaction current = {};
  ASSERT_EQ(sigaction(SIGINT, nullptr, &current), 0);
  EXPECT_EQ(current.sa_handler, SIG_DFL);  // a second Ctrl-C ends the process
}

}  // namespace
}  // namespace databox
