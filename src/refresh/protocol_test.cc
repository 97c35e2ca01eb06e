// The refresh protocol lines: the writer prints the lines of docs/refresh.md byte for byte, the
// parser reads them back to the same events, and it refuses anything else with an error.
#include "refresh/protocol.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace databox::refresh {
namespace {

constexpr const char* kProtocolAt = "2026-11-30T02:10:58.659Z";

//! Events and the lines docs/refresh.md says they are printed as (written by hand).
struct Documented {
  ProtocolEvent event;
  std::string line;
};

std::vector<Documented> DocumentedLines() {
  return {
      {SourceStart{.source = "noaa", .at = kProtocolAt},
       "SOURCE_START source=noaa at=2026-11-30T02:10:58.659Z"},
      {SourceEnd{.source = "noaa", .at = kProtocolAt, .ok = true, .seconds = 0.88},
       "SOURCE_END source=noaa at=2026-11-30T02:10:58.659Z status=0 seconds=0.880"},
      {SourceEnd{.source = "usgs_earthquakes", .at = kProtocolAt, .ok = false, .seconds = 12.5},
       "SOURCE_END source=usgs_earthquakes at=2026-11-30T02:10:58.659Z status=1 seconds=12.500"},
      {PhaseStart{.phase = load::Phase::kTransform, .at = kProtocolAt},
       "PHASE_START phase=transform at=2026-11-30T02:10:58.659Z"},
      {PhaseEnd{.phase = load::Phase::kTransform, .at = kProtocolAt, .ok = true},
       "PHASE_END phase=transform at=2026-11-30T02:10:58.659Z status=0"},
      {PhaseEnd{.phase = load::Phase::kTransform, .at = kProtocolAt, .ok = false},
       "PHASE_END phase=transform at=2026-11-30T02:10:58.659Z status=1"},
  };
}

TEST(ProtocolTest, EventsArePrintedAsTheDocumentedLines) {
  for (const Documented& d : DocumentedLines()) {
    EXPECT_EQ(FormatProtocolLine(d.event), d.line);
  }
}

TEST(ProtocolTest, DocumentedLinesParseToTheirEvents) {
  for (const Documented& d : DocumentedLines()) {
    auto parsed = ParseProtocolLine(d.line);
    ASSERT_TRUE(parsed.has_value()) << d.line << ": " << parsed.error().ToString();
    EXPECT_EQ(*parsed, d.event) << d.line;
  }
}

TEST(ProtocolTest, SecondsAreRoundedToThreeDecimalsAndReadBackAsPrinted) {
  const SourceEnd end{.source = "gbif", .at = kProtocolAt, .ok = true, .seconds = 1.23456};
  const std::string line = FormatProtocolLine(end);
  EXPECT_TRUE(line.ends_with(" seconds=1.235")) << line;
  auto parsed = ParseProtocolLine(line);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  const auto* read = std::get_if<SourceEnd>(&*parsed);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(SecondsText(read->seconds), "1.235");
  EXPECT_EQ(FormatProtocolLine(*parsed), line);
}

TEST(ProtocolTest, MalformedLinesAreDataErrorsQuotingTheLine) {
  const std::vector<std::string> malformed = {
      "",
      "SOURCE_BEGIN source=noaa at=t",                        // unknown kind
      "source_start source=noaa at=t",                        // kinds are upper case
      "SOURCE_START",                                         // no fields
      "SOURCE_START source=noaa",                             // a field missing
      "SOURCE_START at=t source=noaa",                        // fields out of order
      "SOURCE_START source=noaa at=t extra=1",                // a field too many
      "SOURCE_START source= at=t",                            // an empty value
      "SOURCE_START source=noaa  at=t",                       // two spaces
      "SOURCE_START source=noaa at=t ",                       // a trailing space
      "SOURCE_START sources=noaa at=t",                       // a key that only starts right
      "SOURCE_START source noaa at=t",                        // no '='
      "SOURCE_END source=noaa at=t status=2 seconds=1.000",   // status not 0 or 1
      "SOURCE_END source=noaa at=t status=ok seconds=1.000",  // status as a word
      "SOURCE_END source=noaa at=t status=0 seconds=1.0s",    // seconds with a unit
      "SOURCE_END source=noaa at=t status=0 seconds=nan",     // seconds not finite
      "SOURCE_END source=noaa at=t status=0",                 // seconds missing
      "PHASE_START phase=load at=t",                          // not a protocol phase
      "PHASE_END phase=transform at=t",                       // status missing
      "PHASE_END phase=transform at=t status=",               // status empty
  };
  for (const std::string& line : malformed) {
    auto parsed = ParseProtocolLine(line);
    ASSERT_FALSE(parsed.has_value()) << "parsed: '" << line << "'";
    EXPECT_EQ(parsed.error().kind, ErrorKind::kData) << line;
    EXPECT_NE(parsed.error().message.find("'" + line + "'"), std::string::npos)
        << parsed.error().message;
  }
}

TEST(ProtocolTest, PhaseLinesNameTheTransformAndNoOtherPhase) {
  auto parsed = ParseProtocolLine("PHASE_START phase=transform at=t");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  ASSERT_TRUE(std::holds_alternative<PhaseStart>(*parsed));
  EXPECT_EQ(std::get<PhaseStart>(*parsed).phase, load::Phase::kTransform);
  for (const std::string line :
       {"PHASE_END phase=transfrom at=t status=0", "PHASE_START phase=inspection at=t"}) {
    auto refused = ParseProtocolLine(line);
    ASSERT_FALSE(refused.has_value()) << line;
    EXPECT_EQ(refused.error().kind, ErrorKind::kData) << line;
  }
}

}  // namespace
}  // namespace databox::refresh
