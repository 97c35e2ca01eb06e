#include "sources/usfws/targets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "duck/test_support.h"
#include "source/source_test_support.h"

namespace databox::source {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const registry::TargetSettings kSettings{};
const std::string kHeader = "species_code,common_name,scientific_name\n";

std::string ErrorOf(std::string_view text, const registry::TargetSettings& s = kSettings) {
  auto got = ParseTargetsText(text, s, "t.csv");
  EXPECT_FALSE(got.has_value());
  if (got) return "";
  EXPECT_EQ(got.error().kind, ErrorKind::kConfig);
  return got.error().message;
}

TEST(ParseTargetsTest, RowsBomCrlfAndQuotedFields) {
  auto got = ParseTargetsText(
      "\xEF\xBB\xBFspecies_code,common_name,scientific_name\r\n\r\n"
      "berhum,Berylline Hummingbird,Amazilia beryllina\r\n"
      "\"whooping_crane.1\",\"Crane, \"\"Whooping\"\"\",\"Grus\namericana\"\n",
      kSettings, "t.csv");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].code, "berhum");
  EXPECT_EQ((*got)[0].common_name, "Berylline Hummingbird");
  EXPECT_EQ((*got)[0].scientific_name, "Amazilia beryllina");
  EXPECT_EQ((*got)[0].row, 1);
  EXPECT_EQ((*got)[1].code, "whooping_crane.1");
  EXPECT_EQ((*got)[1].common_name, "Crane, \"Whooping\"");
  EXPECT_EQ((*got)[1].scientific_name, "Grus americana");  // the line break collapsed
  EXPECT_EQ((*got)[1].row, 2);
}

TEST(ParseTargetsTest, ColumnsInAnyOrderButNoOthers) {
  auto got = ParseTargetsText(
      "scientific_name,species_code,common_name\nGrus americana,whocra,"
      "Whooping Crane\n",
      kSettings, "t.csv");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ((*got)[0].code, "whocra");
  EXPECT_EQ((*got)[0].scientific_name, "Grus americana");
  EXPECT_THAT(ErrorOf("code,common_name,scientific_name\na,b,c\n"),
              HasSubstr("t.csv: the header must be 'species_code,common_name,scientific_name'"));
  EXPECT_THAT(ErrorOf("species_code,common_name,scientific_name,extra\na,b,c,d\n"),
              HasSubstr("the header must be"));
}

TEST(ParseTargetsTest, ValuesAreCollapsedAsPythonSplitDoes) {
  auto got = ParseTargetsText(kHeader +
                                  "  berhum ,\" Berylline\t\xC2\xA0Hummingbird \","
                                  "Amazilia\xE2\x80\x83 beryllina\n",
                              kSettings, "t.csv");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ((*got)[0].code, "berhum");
  EXPECT_EQ((*got)[0].common_name, "Berylline Hummingbird");
  EXPECT_EQ((*got)[0].scientific_name, "Amazilia beryllina");
}

TEST(ParseTargetsTest, RefusesWithoutTargets) {
  EXPECT_THAT(ErrorOf(""), HasSubstr("t.csv: no targets"));
  EXPECT_THAT(ErrorOf(kHeader), HasSubstr("no targets"));
  EXPECT_THAT(ErrorOf(kHeader + "\n\n"), HasSubstr("no targets"));
}

TEST(ParseTargetsTest, AtMostMaxTargets) {
  std::string text = kHeader;
  for (int i = 0; i < 500; ++i) {
    text += "c" + std::to_string(i) + ",Species " + std::to_string(i) + ",Genus s" +
            std::to_string(i) + "\n";
  }
  auto ok = ParseTargetsText(text, kSettings, "t.csv");
  ASSERT_TRUE(ok.has_value()) << ok.error().ToString();
  EXPECT_EQ(ok->size(), 500u);
  text += "c500,One too many,Genus x\n";
  EXPECT_THAT(ErrorOf(text), HasSubstr("t.csv: 501 targets, more than the limit of 500"));
}

TEST(ParseTargetsTest, EveryViolationIsReportedWithItsRow) {
  const std::string message = ErrorOf(kHeader +
                                      "amerob,American Robin,Turdus migratorius\n"
                                      "-bad,Leading dash,Genus a\n"
                                      "amerob,Again,Turdus migratorius\n"
                                      "lonely,,Genus b\n"
                                      "bell,Ring\x07,Genus c\n"
                                      "long," +
                                      std::string(301, 'x') + ",Genus d\n");
  EXPECT_THAT(message, HasSubstr("targets: 5 problems"));
  EXPECT_THAT(message, HasSubstr("t.csv row 2: species_code '-bad' does not match"));
  EXPECT_THAT(message, HasSubstr("t.csv row 3: duplicate species_code 'amerob' (first in row 1)"));
  EXPECT_THAT(message, HasSubstr("t.csv row 4: common_name is empty"));
  EXPECT_THAT(message, HasSubstr("t.csv row 5: control character in common_name"));
  EXPECT_THAT(message, HasSubstr("t.csv row 6: common_name has 301 characters, more than 300"));
}

TEST(ParseTargetsTest, TextLengthCountsCharactersNotBytes) {
  std::string name;
  for (int i = 0; i < 300; ++i) name += "\xC3\xA9";  // 300 x U+00E9, 600 bytes
  auto got = ParseTargetsText(kHeader + "code1," + name + ",Genus s\n", kSettings, "t.csv");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ((*got)[0].common_name.size(), 600u);
  EXPECT_THAT(ErrorOf(kHeader + "code1," + name + "\xC3\xA9,Genus s\n"),
              HasSubstr("301 characters"));
}

TEST(ParseTargetsTest, CodeLengthAndPatternFromSettings) {
  EXPECT_THAT(ErrorOf(kHeader + "a" + std::string(100, 'b') + ",Text,Genus s\n"),
              HasSubstr("t.csv row 1: species_code"));
  auto ok = ParseTargetsText(kHeader + "a" + std::string(99, 'b') + ",Text,Genus s\n", kSettings,
                             "t.csv");
  EXPECT_TRUE(ok.has_value());
  registry::TargetSettings digits;
  digits.code_pattern = "^[0-9]+$";
  EXPECT_TRUE(ParseTargetsText(kHeader + "123,Text,Genus s", digits, "t.csv").has_value());
  EXPECT_THAT(ErrorOf(kHeader + "abc,Text,Genus s", digits),
              HasSubstr("species_code 'abc' does not match ^[0-9]+$"));
}

TEST(ParseTargetsTest, InvalidUtf8AndBrokenCsv) {
  EXPECT_THAT(ErrorOf(kHeader + "ok,Fine,Genus s\nc2,Bad\xFF,Genus s\n"),
              HasSubstr("t.csv row 2: common_name is not valid UTF-8"));
  EXPECT_THAT(ErrorOf(kHeader + "c1,Two,Genus s,four\n"), HasSubstr("not a CSV target list"));
  EXPECT_THAT(ErrorOf(kHeader + "c1,\"open,Genus s\n"), HasSubstr("is not closed"));
}

TEST(ParseTargetsFileTest, ReadsAFileAndNamesIt) {
  duck::testing::TempDir dir;
  testing::WriteBytes(dir.path() / "targets.csv",
                      kHeader + "amerob,American Robin,Turdus migratorius\namerob,Again,T m\n");
  auto got = ParseTargets(dir.path() / "targets.csv", kSettings);
  ASSERT_FALSE(got.has_value());
  EXPECT_THAT(got.error().message, HasSubstr("targets.csv row 2: duplicate species_code"));
  auto missing = ParseTargets(dir.path() / "absent.csv", kSettings);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kIo);
  testing::WriteBytes(dir.path() / "good.csv", kHeader + "amerob,American Robin,T m\n");
  auto good = ParseTargets(dir.path() / "good.csv", kSettings);
  ASSERT_TRUE(good.has_value()) << good.error().ToString();
  EXPECT_THAT(good->front().scientific_name, Not(HasSubstr("\n")));
}

}  // namespace
}  // namespace databox::source
