#include "common/encoding.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

TEST(EncodingTest, UrlEncodeKeepsOnlyUnreservedAndOptionallySlash) {
  // RFC 3986 section 2.3: ALPHA / DIGIT / "-" / "." / "_" / "~" are the unreserved characters.
  EXPECT_EQ(UrlEncode("AZaz09-._~"), "AZaz09-._~");
  EXPECT_EQ(UrlEncode("a/b c"), "a%2Fb%20c");
  EXPECT_EQ(UrlEncode("a/b c", /*keep_slash=*/true), "a/b%20c");
  EXPECT_EQ(UrlEncode("!*'();:@&=+$,?#[]%"),
            "%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%3F%23%5B%5D%25");
  EXPECT_EQ(UrlEncode(std::string_view("\x00\x7f\xff", 3)), "%00%7F%FF");
}

TEST(EncodingTest, UrlDecodeUndoesUrlEncode) {
  const std::string all_bytes = [] {
    std::string out;
    for (int b = 0; b < 256; ++b) out += static_cast<char>(b);
    return out;
  }();
  EXPECT_EQ(UrlDecode(UrlEncode(all_bytes), /*plus_is_space=*/false), all_bytes);
  EXPECT_EQ(UrlDecode("%e2%82%ac"), "\xe2\x82\xac");
}

TEST(EncodingTest, HexEncodeIsLowerCaseTwoDigitsAByte) {
  EXPECT_EQ(HexEncode(""), "");
  EXPECT_EQ(HexEncode(std::string_view("\x00\x0f\xa0\xff", 4)), "000fa0ff");
}

}  // namespace
}  // namespace databox
