#include "common/utf8.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

TEST(Utf8Test, ValidatesStrictly) {
  EXPECT_TRUE(IsValidUtf8("Caf\xC3\xA9 \xF0\x9F\x90\xA6"));
  EXPECT_FALSE(IsValidUtf8("\xC3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
}

TEST(Utf8Test, LengthCountsCodePoints) {
  EXPECT_EQ(Utf8Length(""), 0u);
  EXPECT_EQ(Utf8Length("abc"), 3u);
  EXPECT_EQ(Utf8Length("Caf\xC3\xA9 \xF0\x9F\x90\xA6"), 6u);
}

}  // namespace
}  // namespace databox
