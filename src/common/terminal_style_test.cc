// Colour only on a terminal, never with NO_COLOR set or TERM=dumb.
#include "common/terminal_style.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

TEST(TerminalStyleTest, ColourOnlyOnATerminalWithoutNoColor) {
  EXPECT_TRUE(ColourWantedFor(true, nullptr, "xterm-256color"));
  EXPECT_TRUE(ColourWantedFor(true, "", nullptr));  // an empty NO_COLOR does not count
  EXPECT_FALSE(ColourWantedFor(false, nullptr, "xterm"));
  EXPECT_FALSE(ColourWantedFor(true, "1", "xterm"));
  EXPECT_FALSE(ColourWantedFor(true, nullptr, "dumb"));
}

TEST(TerminalStyleTest, StyledTextIsTheTextWithoutColour) {
  EXPECT_EQ(Styled("FAILED", Style::kRed, false), "FAILED");
  EXPECT_EQ(Styled("FAILED", Style::kRed, true), "\x1b[31mFAILED\x1b[0m");
  EXPECT_EQ(Styled("x", Style::kPlain, true), "x");
}

}  // namespace
}  // namespace databox
