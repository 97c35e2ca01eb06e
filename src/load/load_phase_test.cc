// Load phases: the names LoadProgress reports and the live display shows.
#include "load/load_phase.h"

#include <gtest/gtest.h>

namespace databox::load {
namespace {

TEST(LoadPhaseTest, NamesAreTheDocumentedWords) {
  EXPECT_EQ(LoadPhaseName(LoadPhase::kExtract), "extract");
  EXPECT_EQ(LoadPhaseName(LoadPhase::kNormalize), "normalize");
  EXPECT_EQ(LoadPhaseName(LoadPhase::kCommit), "commit");
}

TEST(LoadPhaseTest, EveryNameParsesBackToItsPhase) {
  for (LoadPhase phase : {LoadPhase::kExtract, LoadPhase::kNormalize, LoadPhase::kCommit}) {
    auto parsed = ParseLoadPhase(LoadPhaseName(phase));
    ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
    EXPECT_EQ(*parsed, phase);
  }
}

TEST(LoadPhaseTest, AnUnknownNameIsADataErrorNamingIt) {
  for (std::string_view name : {"", "Extract", "load", "inspection", "commit "}) {
    auto parsed = ParseLoadPhase(name);
    ASSERT_FALSE(parsed.has_value()) << name;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kData);
    EXPECT_NE(parsed.error().message.find("'" + std::string(name) + "'"), std::string::npos)
        << parsed.error().message;
  }
}

}  // namespace
}  // namespace databox::load
