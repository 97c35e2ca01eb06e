#include "common/ascii.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

TEST(AsciiLowerTest, FoldsOnlyAsciiCapitals) {
  EXPECT_EQ(AsciiLower("Content-Type: AWS4-HMAC-SHA256"), "content-type: aws4-hmac-sha256");
  EXPECT_EQ(AsciiLower(""), "");
  // UTF-8 bytes of "Ä" (0xC3 0x84) and "é" stay as they are.
  EXPECT_EQ(AsciiLower("\xC3\x84Z\xC3\xA9"), "\xC3\x84z\xC3\xA9");
}

TEST(AsciiEqualsIgnoreCaseTest, IgnoresOnlyTheCaseOfAsciiLetters) {
  EXPECT_TRUE(AsciiEqualsIgnoreCase("X-Amz-Date", "x-amz-date"));
  EXPECT_TRUE(AsciiEqualsIgnoreCase("", ""));
  EXPECT_FALSE(AsciiEqualsIgnoreCase("host", "hosts"));
  EXPECT_FALSE(AsciiEqualsIgnoreCase("x-amz_", "x-amz-"));
  EXPECT_FALSE(AsciiEqualsIgnoreCase("\xC3\x84", "\xC3\xA4"));  // "Ä" and "ä": not ASCII
}

}  // namespace
}  // namespace databox
