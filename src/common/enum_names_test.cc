// The name tables of enums: names of values, values of names, and what a bad name is told.
#include "common/enum_names.h"

#include <gtest/gtest.h>

#include "common/write_disposition.h"

namespace databox {
namespace {

enum class Color { kRed, kGreen, kBlue };

constexpr EnumNames<Color, 2> kSomeColors{{{Color::kRed, "red"}, {Color::kGreen, "green"}}};

TEST(EnumNamesTest, NamesAndValuesRoundTrip) {
  EXPECT_EQ(NameOf(kSomeColors, Color::kGreen), "green");
  EXPECT_EQ(ValueOf(kSomeColors, "red"), Color::kRed);
  EXPECT_EQ(ValueOf(kSomeColors, "Red"), std::nullopt);  // names are exact
}

TEST(EnumNamesTest, AValueTheTableLacksGetsTheGivenFallback) {
  EXPECT_EQ(NameOf(kSomeColors, Color::kBlue), "?");
  EXPECT_EQ(NameOf(kSomeColors, Color::kBlue, "unknown"), "unknown");
}

TEST(EnumNamesTest, AnUnknownNameIsADataErrorListingTheNames) {
  auto parsed = ParseName(kSomeColors, "purple", "color");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kData);
  EXPECT_EQ(parsed.error().message, "unknown color 'purple': expected one of 'red', 'green'");
  EXPECT_EQ(ParseName(kSomeColors, "green", "color").value(), Color::kGreen);
}

TEST(EnumNamesTest, JoinNamesKeepsTheTableOrderQuotedOrNot) {
  EXPECT_EQ(JoinNames(kSomeColors), "red, green");
  EXPECT_EQ(JoinNames(kSomeColors, "'"), "'red', 'green'");
  EXPECT_EQ(JoinNames(kSomeColors, "\""), "\"red\", \"green\"");
}

TEST(EnumNamesTest, DistinctNamesFindsARepeatedValueOrName) {
  constexpr EnumNames<Color, 2> kSameValue{{{Color::kRed, "red"}, {Color::kRed, "rouge"}}};
  constexpr EnumNames<Color, 2> kSameName{{{Color::kRed, "red"}, {Color::kBlue, "red"}}};
  EXPECT_TRUE(DistinctNames(kSomeColors));
  EXPECT_FALSE(DistinctNames(kSameValue));
  EXPECT_FALSE(DistinctNames(kSameName));
}

TEST(EnumNamesTest, NameListKeepsTheTableOrder) {
  EXPECT_EQ(NameList(kWriteDispositionNames),
            (std::vector<std::string>{"append", "replace", "merge"}));
  EXPECT_EQ(ParseWriteDisposition("merge"), WriteDisposition::kMerge);
  EXPECT_EQ(WriteDispositionName(WriteDisposition::kReplace), "replace");
}

}  // namespace
}  // namespace databox
