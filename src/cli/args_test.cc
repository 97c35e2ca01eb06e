#include "cli/args.h"

#include <gtest/gtest.h>

namespace databox::cli {
namespace {

CommandSpec RefreshLike() {
  return CommandSpec{"refresh",
                     "summary",
                     "databox refresh [--source S ...]",
                     "",
                     {{"source", "S", "one source", true},
                      {"max-workers", "N", "workers"},
                      {"json", "", "json output"}},
                     0,
                     1};
}

TEST(ParseArgs, AcceptsDeclaredOptionsInBothForms) {
  auto parsed = ParseArgs(
      RefreshLike(), {"--source", "noaa", "--source=gbif", "--max-workers=3", "--json", "extra"});
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->GetAll("source"), (std::vector<std::string>{"noaa", "gbif"}));
  EXPECT_EQ(parsed->Get("max-workers"), "3");
  EXPECT_TRUE(parsed->Has("json"));
  EXPECT_EQ(parsed->positionals(), std::vector<std::string>{"extra"});
}

TEST(ParseArgs, RejectsUnknownOptionNamingIt) {
  auto parsed = ParseArgs(RefreshLike(), {"--sauce", "noaa"});
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().message.find("--sauce"), std::string::npos);
  EXPECT_NE(parsed.error().message.find("databox refresh --help"), std::string::npos);
}

TEST(ParseArgs, RejectsRepeatOfSingleOption) {
  EXPECT_FALSE(ParseArgs(RefreshLike(), {"--max-workers", "1", "--max-workers", "2"}));
}

TEST(ParseArgs, RejectsMissingValueAndValueOnFlag) {
  EXPECT_FALSE(ParseArgs(RefreshLike(), {"--max-workers"}));
  EXPECT_FALSE(ParseArgs(RefreshLike(), {"--json=yes"}));
}

TEST(ParseArgs, CountsPositionals) {
  EXPECT_FALSE(ParseArgs(RefreshLike(), {"a", "b"}));
  CommandSpec needs_one = RefreshLike();
  needs_one.min_positionals = 1;
  EXPECT_FALSE(ParseArgs(needs_one, {}));
  // --help wins over positional counting so that `databox run --help` works.
  EXPECT_TRUE(ParseArgs(needs_one, {"--help"}));
}

TEST(ParseArgs, DoubleDashEndsOptions) {
  auto parsed = ParseArgs(RefreshLike(), {"--", "--json"});
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed->Has("json"));
  EXPECT_EQ(parsed->positionals(), std::vector<std::string>{"--json"});
}

TEST(FormatCommandHelp, ListsEveryOption) {
  const std::string help = FormatCommandHelp(RefreshLike());
  EXPECT_NE(help.find("Usage: databox refresh"), std::string::npos);
  EXPECT_NE(help.find("--max-workers N"), std::string::npos);
  EXPECT_NE(help.find("--source S"), std::string::npos);
  EXPECT_NE(help.find("(repeatable)"), std::string::npos);
  EXPECT_NE(help.find("--help"), std::string::npos);
}

}  // namespace
}  // namespace databox::cli
