#include "common/untrusted_json.h"

#include <gtest/gtest.h>

#include <string>

namespace databox {
namespace {

std::string Nested(int depth, char open, char close) {
  return std::string(static_cast<std::size_t>(depth), open) +
         std::string(static_cast<std::size_t>(depth), close);
}

TEST(UntrustedJsonTest, ParsesLikeNlohmannKeepingKeyOrderAndTheLastValueOfARepeatedKey) {
  auto parsed =
      ParseUntrustedJson(R"({"b":1,"a":[true,null,"x",2.5,-3],"b":{"c":18446744073709551615}})");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().detail;
  EXPECT_EQ(parsed->dump(), R"({"b":{"c":18446744073709551615},"a":[true,null,"x",2.5,-3]})");
  EXPECT_EQ(*parsed, nlohmann::ordered_json::parse(
                         R"({"b":1,"a":[true,null,"x",2.5,-3],"b":{"c":18446744073709551615}})"));
}

TEST(UntrustedJsonTest, ReadsScalarsAndEmptyContainersAtTheTopLevel) {
  EXPECT_EQ(ParseUntrustedJson("7")->dump(), "7");
  EXPECT_EQ(ParseUntrustedJson("[]")->dump(), "[]");
  EXPECT_EQ(ParseUntrustedJson(" {} ")->dump(), "{}");
  EXPECT_EQ(ParseUntrustedJson("\"s\"")->dump(), "\"s\"");
}

TEST(UntrustedJsonTest, RefusesNestingDeeperThanTheLimitAtAnyDepth) {
  for (int depth : {kMaxJsonDepth + 1, 20'000, 50'000, 500'000}) {
    std::string objects;
    for (int i = 0; i < depth; ++i) objects += R"({"a":)";
    objects += "1" + std::string(static_cast<std::size_t>(depth), '}');
    for (const std::string& text : {Nested(depth, '[', ']'), objects}) {
      auto parsed = ParseUntrustedJson(text);
      ASSERT_FALSE(parsed.has_value()) << depth << text.substr(0, 10);
      EXPECT_EQ(parsed.error().kind, JsonFaultKind::kTooDeep);
      EXPECT_NE(parsed.error().detail.find("more than 1024 levels deep"), std::string::npos)
          << parsed.error().detail;
    }
  }
  auto arrays = ParseUntrustedJson(Nested(2000, '[', ']'));
  ASSERT_FALSE(arrays.has_value());
  EXPECT_EQ(arrays.error().offset, 1024u) << "the bracket that opens level 1025";
  EXPECT_NE(arrays.error().detail.find("under [0][0][0][0]..."), std::string::npos)
      << arrays.error().detail;
}

TEST(UntrustedJsonTest, AcceptsNestingUpToTheLimit) {
  auto parsed = ParseUntrustedJson(Nested(kMaxJsonDepth, '[', ']'));
  ASSERT_TRUE(parsed.has_value()) << parsed.error().detail;
  std::string objects;
  for (int i = 0; i < kMaxJsonDepth; ++i) objects += R"({"a":)";
  objects += "1" + std::string(kMaxJsonDepth, '}');
  EXPECT_TRUE(ParseUntrustedJson(objects).has_value());
}

TEST(UntrustedJsonTest, BracketsInsideStringsDoNotCountTowardsTheDepth) {
  const std::string text = R"({"s":")" + std::string(5000, '[') + R"("})";
  auto parsed = ParseUntrustedJson(text);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().detail;
  EXPECT_EQ((*parsed)["s"].get<std::string>().size(), 5000u);
}

TEST(UntrustedJsonTest, ANumberBeyondADoubleIsNamedWithItsPlaceNotCalledInvalid) {
  auto parsed = ParseUntrustedJson(R"({"results":[{"id":1,"v":2},{"id":2,"v":1e400}]})");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, JsonFaultKind::kNumberOutOfRange);
  EXPECT_EQ(parsed.error().detail,
            "holds the number 1e400 at results[1].v (byte offset 39), which is out of range for "
            "a double (about 1.8e308)");
  auto in_list = ParseUntrustedJson("[1, -2e999]");
  ASSERT_FALSE(in_list.has_value());
  EXPECT_NE(in_list.error().detail.find("-2e999 at [1]"), std::string::npos)
      << in_list.error().detail;
}

TEST(UntrustedJsonTest, IntegersBeyond64BitsKeepTheirExactDigitsAsText) {
  auto parsed = ParseUntrustedJson(
      R"([123456789012345678901234567890123, -98765432109876543210, 18446744073709551615,
          -9223372036854775808, 1.5e30, 12345678901234567890123.0])");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().detail;
  EXPECT_EQ((*parsed)[0], "123456789012345678901234567890123");
  EXPECT_EQ((*parsed)[1], "-98765432109876543210");
  EXPECT_TRUE((*parsed)[2].is_number_unsigned());
  EXPECT_TRUE((*parsed)[3].is_number_integer());
  EXPECT_TRUE((*parsed)[4].is_number_float()) << "not an integer literal: stays a double";
  EXPECT_TRUE((*parsed)[5].is_number_float());
}

TEST(UntrustedJsonTest, SyntaxErrorsSayNotValidJsonWithTheOffset) {
  for (const char* text : {"", "{", "<html>", "{\"a\":1} x", "\"\xff\""}) {
    auto parsed = ParseUntrustedJson(text);
    ASSERT_FALSE(parsed.has_value()) << text;
    EXPECT_EQ(parsed.error().kind, JsonFaultKind::kSyntax) << text;
    EXPECT_NE(parsed.error().detail.find("is not valid JSON (syntax error at byte offset"),
              std::string::npos);
  }
  EXPECT_EQ(ParseUntrustedJson("[1,]").error().offset, 3u);
}

}  // namespace
}  // namespace databox
