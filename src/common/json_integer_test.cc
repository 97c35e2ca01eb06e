// Integers beyond 2^53 are strings in our JSON, and both forms read back.
#include "common/json_integer.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

TEST(JsonIntegerTest, SmallValuesAreNumbersLargeOnesStrings) {
  EXPECT_EQ(JsonInteger(42).dump(), "42");
  EXPECT_EQ(JsonInteger(kMaxExactJsonInteger).dump(), "9007199254740992");
  EXPECT_EQ(JsonInteger(kMaxExactJsonInteger + 1).dump(), "\"9007199254740993\"");
  EXPECT_EQ(JsonInteger(-kMaxExactJsonInteger - 1).dump(), "\"-9007199254740993\"");
  // A snapshot id as jq 1.6 would have mangled it.
  EXPECT_EQ(JsonInteger<nlohmann::ordered_json>(801030709168230257).dump(),
            "\"801030709168230257\"");
}

TEST(JsonIntegerTest, BothFormsReadBack) {
  for (int64_t value :
       {int64_t{0}, int64_t{-7}, kMaxExactJsonInteger + 1, int64_t{801030709168230257}}) {
    auto parsed = IntegerFromJson(JsonInteger(value));
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
    EXPECT_EQ(*parsed, value);
  }
  EXPECT_EQ(IntegerFromJson(nlohmann::json(801030709168230257)).value(), 801030709168230257);
}

TEST(JsonIntegerTest, AnythingElseIsADataError) {
  for (const char* text : {R"("12x")", R"("")", "1.5", "null", "[1]"}) {
    auto parsed = IntegerFromJson(nlohmann::json::parse(text));
    ASSERT_FALSE(parsed.has_value()) << text;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kData);
  }
}

}  // namespace
}  // namespace databox
