// Phases: the names progress lines, protocol lines and the run history print, and their parsers.
#include "load/load_phase.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace databox::load {
namespace {

TEST(PhaseTest, NamesAreTheDocumentedWords) {
  const std::vector<std::pair<Phase, std::string>> named = {
      {Phase::kExtract, "extract"},       {Phase::kNormalize, "normalize"},
      {Phase::kCommit, "commit"},         {Phase::kLoad, "load"},
      {Phase::kInspection, "inspection"}, {Phase::kTransform, "transform"}};
  ASSERT_EQ(named.size(), kPhases.size());
  for (const auto& [phase, name] : named) EXPECT_EQ(PhaseName(phase), name);
}

TEST(PhaseTest, EveryNameParsesBackToItsPhase) {
  for (Phase phase : kPhases) {
    auto parsed = ParsePhase(PhaseName(phase));
    ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
    EXPECT_EQ(*parsed, phase);
    auto optional = ParseOptionalPhase(OptionalPhaseName(phase));
    ASSERT_TRUE(optional.has_value()) << optional.error().ToString();
    EXPECT_EQ(*optional, phase);
  }
}

TEST(PhaseTest, NoPhaseIsTheEmptyNameOnlyWhereNoneIsMeant) {
  EXPECT_EQ(OptionalPhaseName(std::nullopt), "");
  auto none = ParseOptionalPhase("");
  ASSERT_TRUE(none.has_value()) << none.error().ToString();
  EXPECT_EQ(*none, std::nullopt);
  EXPECT_FALSE(ParsePhase("").has_value());
}

TEST(PhaseTest, AnUnknownNameIsADataErrorNamingIt) {
  for (std::string_view name : {"Extract", "loads", "none", "commit "}) {
    for (const Error& error : {ParsePhase(name).error(), ParseOptionalPhase(name).error()}) {
      EXPECT_EQ(error.kind, ErrorKind::kData) << name;
      EXPECT_NE(error.message.find("'" + std::string(name) + "'"), std::string::npos)
          << error.message;
    }
  }
}

}  // namespace
}  // namespace databox::load
