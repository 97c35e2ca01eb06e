// Exit codes: the numbers the process returns and the run history records.
#include "common/exit_code.h"

#include <gtest/gtest.h>

#include <csignal>

namespace databox {
namespace {

TEST(ExitCodeTest, NumbersAreTheDocumentedProcessStatuses) {
  EXPECT_EQ(ExitCodeNumber(ExitCode::kOk), 0);
  EXPECT_EQ(ExitCodeNumber(ExitCode::kRunFailed), 1);
  EXPECT_EQ(ExitCodeNumber(ExitCode::kUsage), 2);
  EXPECT_EQ(ExitCodeNumber(ExitCode::kInterrupted), 130);
  EXPECT_EQ(ExitCodeNumber(ExitCode::kTerminated), 143);
}

TEST(ExitCodeTest, SigintAndSigtermMapToTheShellsNumbers) {
  EXPECT_EQ(ExitCodeOfSignal(SIGINT), ExitCode::kInterrupted);
  EXPECT_EQ(ExitCodeOfSignal(SIGTERM), ExitCode::kTerminated);
  EXPECT_EQ(ExitCodeOfSignal(SIGHUP), std::nullopt);
}

TEST(ExitCodeTest, EveryNumberParsesBackToItsCode) {
  for (ExitCode code : {ExitCode::kOk, ExitCode::kRunFailed, ExitCode::kUsage,
                        ExitCode::kInterrupted, ExitCode::kTerminated}) {
    auto parsed = ParseExitCode(ExitCodeNumber(code));
    ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
    EXPECT_EQ(*parsed, code);
  }
}

TEST(ExitCodeTest, AnUnknownNumberIsADataErrorNamingIt) {
  for (int number : {-1, 3, 77, 128, 131, 137}) {
    auto parsed = ParseExitCode(number);
    ASSERT_FALSE(parsed.has_value()) << number;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kData);
    EXPECT_NE(parsed.error().message.find(std::to_string(number)), std::string::npos)
        << parsed.error().message;
  }
}

}  // namespace
}  // namespace databox
