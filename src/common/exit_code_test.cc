// Exit codes: the numbers the process returns and the run history records.
#include "common/exit_code.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

TEST(ExitCodeTest, NumbersAreTheDocumentedProcessStatuses) {
  EXPECT_EQ(ExitCodeNumber(ExitCode::kOk), 0);
  EXPECT_EQ(ExitCodeNumber(ExitCode::kRunFailed), 1);
  EXPECT_EQ(ExitCodeNumber(ExitCode::kUsage), 2);
}

TEST(ExitCodeTest, EveryNumberParsesBackToItsCode) {
  for (ExitCode code : {ExitCode::kOk, ExitCode::kRunFailed, ExitCode::kUsage}) {
    auto parsed = ParseExitCode(ExitCodeNumber(code));
    ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
    EXPECT_EQ(*parsed, code);
  }
}

TEST(ExitCodeTest, AnUnknownNumberIsADataErrorNamingIt) {
  for (int number : {-1, 3, 77, 128}) {
    auto parsed = ParseExitCode(number);
    ASSERT_FALSE(parsed.has_value()) << number;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kData);
    EXPECT_NE(parsed.error().message.find(std::to_string(number)), std::string::npos)
        << parsed.error().message;
  }
}

}  // namespace
}  // namespace databox
