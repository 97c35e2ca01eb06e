#include "source/targets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "duck/test_support.h"
#include "source/xlsx_test_support.h"

namespace databox::source {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const registry::TargetSettings kSettings{};

std::string ErrorOf(std::string_view text, const registry::TargetSettings& s = kSettings) {
  auto got = ParseTargetsText(text, s, "t.txt");
  EXPECT_FALSE(got.has_value());
  if (got) return "";
  EXPECT_EQ(got.error().kind, ErrorKind::kConfig);
  return got.error().message;
}

TEST(ParseTargetsTest, CodesTextsCommentsBomAndCrlf) {
  auto got = ParseTargetsText(
      "\xEF\xBB\xBF# USFWS targets\r\n\r\namerob American Robin\r\n  whooping_crane.1 \t Grus "
      "americana  \n# end\n",
      kSettings, "t.txt");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].code, "amerob");
  EXPECT_EQ((*got)[0].text, "American Robin");
  EXPECT_EQ((*got)[0].line, 3);
  EXPECT_EQ((*got)[1].code, "whooping_crane.1");
  EXPECT_EQ((*got)[1].text, "Grus americana");
  EXPECT_EQ((*got)[1].line, 4);
}

TEST(ParseTargetsTest, RefusesWithoutTargets) {
  EXPECT_THAT(ErrorOf(""), HasSubstr("t.txt: no targets"));
  EXPECT_THAT(ErrorOf("# only a comment\n\n"), HasSubstr("no targets"));
}

TEST(ParseTargetsTest, AtMostMaxTargets) {
  std::string text;
  for (int i = 0; i < 500; ++i)
    text += "c" + std::to_string(i) + " Species " + std::to_string(i) + "\n";
  auto ok = ParseTargetsText(text, kSettings, "t.txt");
  ASSERT_TRUE(ok.has_value()) << ok.error().ToString();
  EXPECT_EQ(ok->size(), 500u);
  text += "c500 One too many\n";
  EXPECT_THAT(ErrorOf(text), HasSubstr("t.txt:501: 501 targets, more than the limit of 500"));
}

TEST(ParseTargetsTest, EveryViolationIsReportedWithItsLine) {
  const std::string message = ErrorOf(
      "amerob American Robin\n"
      "-bad Leading dash\n"
      "amerob Again\n"
      "lonely\n"
      "tabbed Text\twith a tab\n"
      "bell Ring\x07\n" +
      std::string("long ") + std::string(301, 'x') + "\n");
  EXPECT_THAT(message, HasSubstr("targets: 6 problems"));
  EXPECT_THAT(message, HasSubstr("t.txt:2: code '-bad' does not match"));
  EXPECT_THAT(message, HasSubstr("t.txt:3: duplicate code 'amerob' (first on line 1)"));
  EXPECT_THAT(message, HasSubstr("t.txt:4: target 'lonely' has no text"));
  EXPECT_THAT(message, HasSubstr("t.txt:5: control character in target 'tabbed'"));
  EXPECT_THAT(message, HasSubstr("t.txt:6: control character in target 'bell'"));
  EXPECT_THAT(message, HasSubstr("t.txt:7: text has 301 characters, more than 300"));
}

TEST(ParseTargetsTest, TextLengthCountsCharactersNotBytes) {
  std::string text = "code1 ";
  for (int i = 0; i < 300; ++i) text += "\xC3\xA9";  // 300 x U+00E9, 600 bytes
  auto got = ParseTargetsText(text, kSettings, "t.txt");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ((*got)[0].text.size(), 600u);
  EXPECT_THAT(ErrorOf(text + "\xC3\xA9"), HasSubstr("301 characters"));
}

TEST(ParseTargetsTest, CodeLengthAndPatternFromSettings) {
  EXPECT_THAT(ErrorOf("a" + std::string(100, 'b') + " Text\n"), HasSubstr("t.txt:1: code"));
  auto ok = ParseTargetsText("a" + std::string(99, 'b') + " Text\n", kSettings, "t.txt");
  EXPECT_TRUE(ok.has_value());
  registry::TargetSettings digits;
  digits.code_pattern = "^[0-9]+$";
  EXPECT_TRUE(ParseTargetsText("123 Text", digits, "t.txt").has_value());
  EXPECT_THAT(ErrorOf("abc Text", digits), HasSubstr("code 'abc' does not match ^[0-9]+$"));
}

TEST(ParseTargetsTest, C1ControlsAndInvalidUtf8) {
  EXPECT_THAT(ErrorOf("c1 Text\xC2\x85here\n"), HasSubstr("t.txt:1: control character"));
  EXPECT_THAT(ErrorOf("ok Fine\nc2 Bad\xFF\n"), HasSubstr("t.txt:2: not valid UTF-8"));
  EXPECT_THAT(ErrorOf("c3 Bad\xC3\n"), HasSubstr("t.txt:1: not valid UTF-8"));
}

TEST(ParseTargetsFileTest, ReadsAFileAndNamesIt) {
  duck::testing::TempDir dir;
  testing::WriteBytes(dir.path() / "targets.txt", "amerob American Robin\namerob Again\n");
  auto got = ParseTargets(dir.path() / "targets.txt", kSettings);
  ASSERT_FALSE(got.has_value());
  EXPECT_THAT(got.error().message, HasSubstr("targets.txt:2: duplicate code"));
  auto missing = ParseTargets(dir.path() / "absent.txt", kSettings);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kIo);
  testing::WriteBytes(dir.path() / "good.txt", "amerob American Robin\n");
  auto good = ParseTargets(dir.path() / "good.txt", kSettings);
  ASSERT_TRUE(good.has_value()) << good.error().ToString();
  EXPECT_THAT(good->front().text, Not(HasSubstr("\n")));
}

}  // namespace
}  // namespace databox::source
