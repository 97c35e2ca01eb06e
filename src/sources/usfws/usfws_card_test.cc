#include "sources/usfws/usfws_card.h"

#include <gtest/gtest.h>

#include "common/sha256.h"
#include "sources/usfws/test_util.h"
#include "sources/usfws/usfws_html.h"

namespace databox::source {
namespace {

using testing::UsfwsFixture;

Card Parse(const std::string& html) {
  auto card = ParseCard(html);
  EXPECT_TRUE(card.has_value());
  return card.value_or(Card{});
}

TEST(UsfwsCardTest, ReadsEveryFieldOfACard) {
  const Card card = Parse(UsfwsFixture("card_perched.html"));
  EXPECT_EQ(card.href, "/media/rufous-hummingbird-perched");
  EXPECT_EQ(card.source_page_url, "https://www.fws.gov/media/rufous-hummingbird-perched");
  EXPECT_EQ(card.media_id, "rufous-hummingbird-perched");
  EXPECT_EQ(card.title, "Rufous hummingbird & twig");
  EXPECT_EQ(card.caption, "A male rufous hummingbird rests on a twig.");
  EXPECT_EQ(card.credit, "Jane Observer/USFWS");
  EXPECT_EQ(card.mime_label, "Image");
  EXPECT_EQ(card.image_url,
            "https://www.fws.gov/sites/default/files/styles/large_square/public/"
            "rufous-perched.jpg?h=1a2b&itok=Xy");
  EXPECT_EQ(card.alt_text, "Rufous hummingbird perched on a twig");
  EXPECT_EQ(card.width, 480);
  EXPECT_EQ(card.height, 480);
  EXPECT_EQ(card.published_at, "2024-06-21T12:00:00Z");
}

TEST(UsfwsCardTest, AbsentIsNullEmptyIsEmptyAndOnlyIntegersAreSizes) {
  const Card card = Parse(UsfwsFixture("card_flight.html"));
  EXPECT_EQ(card.title, "Rufous in flight");
  EXPECT_EQ(card.caption, "");             // present but empty
  EXPECT_EQ(card.credit, std::nullopt);    // absent
  EXPECT_EQ(card.alt_text, std::nullopt);  // no alt attribute
  EXPECT_EQ(card.width, std::nullopt);     // "wide"
  EXPECT_EQ(card.height, 300);
  EXPECT_EQ(card.published_at, std::nullopt);
}

TEST(UsfwsCardTest, LinkFallsBackToTheImageAndMediaIdToAHash) {
  const Card card = Parse(UsfwsFixture("card_offsite.html"));
  EXPECT_EQ(card.href, "https://partners.example.org/photos/rufous-at-feeder");
  EXPECT_EQ(card.source_page_url, card.href);
  EXPECT_EQ(card.media_id, Sha256Hex("https://partners.example.org/photos/rufous-at-feeder|"
                                     "Rufous hummingbird at a feeder"));
}

TEST(UsfwsCardTest, ACardWithoutLinkOrTitle) {
  const Card card = Parse("<div class='teaser'>nothing here</div>");
  EXPECT_EQ(card.href, "");
  EXPECT_EQ(card.source_page_url, "https://www.fws.gov/");
  EXPECT_EQ(card.title, std::nullopt);
  EXPECT_EQ(card.media_id, Sha256Hex("|None"));
  EXPECT_EQ(Parse("").source_page_url, "https://www.fws.gov/");
}

TEST(UsfwsTextRuleTest, OwnTextFirstThenChildrenCollapsed) {
  auto doc = HtmlDocument::Parse(
      "<div id=d><div class=l>Date Shot/Created</div>\n 08/29/2021 <span>a <b>b</b></span>  "
      "tail</div>",
      "t");
  ASSERT_TRUE(doc.has_value());
  const auto div = FirstTag(*doc->root(), "div");
  ASSERT_TRUE(div.has_value());
  EXPECT_EQ(ElementText(*div), "08/29/2021 tail Date Shot/Created a b");
}

TEST(UsfwsTextRuleTest, FirstMeansDocumentOrder) {
  auto doc = HtmlDocument::Parse(
      "<div><section><p class='x'>inner first</p></section><p class='x'>later</p></div>", "t");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(TextOfClass(*doc->root(), "x"), "inner first");
  EXPECT_EQ(TextOfClass(*doc->root(), "missing"), std::nullopt);
}

TEST(UsfwsCardTest, UrlPath) {
  EXPECT_EQ(UrlPath("https://www.fws.gov/media/x?y=1#z"), "/media/x");
  EXPECT_EQ(UrlPath("https://www.fws.gov"), "");
  EXPECT_EQ(UrlPath("https://www.fws.gov/"), "/");
}

}  // namespace
}  // namespace databox::source
