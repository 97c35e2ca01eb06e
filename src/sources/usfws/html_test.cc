#include "sources/usfws/html.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace databox {
namespace {

HtmlDocument ParseOrDie(std::string_view html) {
  auto doc = HtmlDocument::Parse(html, "test page");
  EXPECT_TRUE(doc.has_value());
  return std::move(*doc);
}

std::vector<std::string> Names(const std::vector<HtmlElement>& elements) {
  std::vector<std::string> out;
  for (const auto& e : elements) out.emplace_back(e.name());
  return out;
}

TEST(HtmlDocumentTest, RepairsAFragmentAndWalksItInDocumentOrder) {
  HtmlDocument doc = ParseOrDie("<div class='a'><p>one<span>two</span></div><img src=x>");
  ASSERT_TRUE(doc.root().has_value());
  EXPECT_EQ(doc.root()->name(), "html");
  EXPECT_EQ(Names(doc.root()->Descendants()),
            (std::vector<std::string>{"body", "div", "p", "span", "img"}));
  auto p = doc.root()->FirstDescendant([](const HtmlElement& e) { return e.name() == "p"; });
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->OwnTexts(), std::vector<std::string>{"one"});
  EXPECT_EQ(Names(p->Children()), std::vector<std::string>{"span"});
}

TEST(HtmlDocumentTest, ClassesAreWhitespaceSeparatedTokens) {
  HtmlDocument doc = ParseOrDie("<div class=\"photoswipe-gallery field\n\tfield--item\">x</div>");
  auto div = doc.root()->FirstDescendant([](const HtmlElement& e) { return e.name() == "div"; });
  ASSERT_TRUE(div.has_value());
  EXPECT_TRUE(div->HasClass("field"));
  EXPECT_TRUE(div->HasClass("field--item"));
  EXPECT_TRUE(div->HasClass("photoswipe-gallery"));
  EXPECT_FALSE(div->HasClass("photoswipe"));
  EXPECT_FALSE(div->HasClass("field--"));
  EXPECT_FALSE(div->HasClass(""));
}

TEST(HtmlDocumentTest, DecodesEntitiesInTextAndAttributes) {
  HtmlDocument doc = ParseOrDie(
      "<a href=\"/x?h=1&amp;itok=2\" title='Caf&eacute; &#x263A;'>Fish &amp; Wildlife&nbsp;!</a>");
  auto a = doc.root()->FirstDescendant([](const HtmlElement& e) { return e.name() == "a"; });
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->Attribute("href"), "/x?h=1&itok=2");
  EXPECT_EQ(a->Attribute("title"), "Caf\xC3\xA9 \xE2\x98\xBA");
  EXPECT_EQ(a->OwnTexts(), std::vector<std::string>{"Fish & Wildlife\xC2\xA0!"});
  EXPECT_EQ(a->Attribute("download"), std::nullopt);
}

TEST(HtmlDocumentTest, CommentsAreNotText) {
  HtmlDocument doc = ParseOrDie("<p>a<!-- hidden -->b</p>");
  auto p = doc.root()->FirstDescendant([](const HtmlElement& e) { return e.name() == "p"; });
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->OwnTexts(), (std::vector<std::string>{"a", "b"}));
}

TEST(HtmlDocumentTest, EmptyInputHasNoRoot) {
  HtmlDocument doc = ParseOrDie("");
  EXPECT_FALSE(doc.root().has_value());
}

TEST(ResolveUrlTest, FollowsRfc3986) {
  const std::string base = "https://www.fws.gov/";
  EXPECT_EQ(ResolveUrl(base, "/media/x"), "https://www.fws.gov/media/x");
  EXPECT_EQ(ResolveUrl(base, "media/x"), "https://www.fws.gov/media/x");
  EXPECT_EQ(ResolveUrl(base, ""), "https://www.fws.gov/");
  EXPECT_EQ(ResolveUrl(base, "/s/a.png?h=1&itok=2"), "https://www.fws.gov/s/a.png?h=1&itok=2");
  EXPECT_EQ(ResolveUrl(base, "https://example.org/a"), "https://example.org/a");
  EXPECT_EQ(ResolveUrl(base, "//cdn.example.org/p"), "https://cdn.example.org/p");
  EXPECT_EQ(ResolveUrl(base, "a/../b"), "https://www.fws.gov/b");
  EXPECT_EQ(ResolveUrl("https://www.fws.gov/media/x", "y"), "https://www.fws.gov/media/y");
  EXPECT_EQ(ResolveUrl(base, "  /media/x\n"), "https://www.fws.gov/media/x");
}

TEST(ResolveUrlTest, JoinsWhatLibxml2CannotParseAsText) {
  EXPECT_EQ(ResolveUrl("https://www.fws.gov/", "/caf\xC3\xA9 x"),
            "https://www.fws.gov/caf\xC3\xA9 x");
  EXPECT_EQ(ResolveUrl("https://www.fws.gov/a/b", "c d"), "https://www.fws.gov/a/c d");
  EXPECT_EQ(ResolveUrl("https://www.fws.gov/", "https://example.org/a b"),
            "https://example.org/a b");
}

}  // namespace
}  // namespace databox
