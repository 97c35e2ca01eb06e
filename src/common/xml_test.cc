#include "common/xml.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace databox {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Texts(const std::vector<XmlElement>& elements) {
  std::vector<std::string> out;
  for (const XmlElement& e : elements) out.push_back(e.Text());
  return out;
}

TEST(XmlTest, FindsElementsByLocalNameInDocumentOrder) {
  auto doc = XmlDocument::Parse(
      R"(<?xml version="1.0"?><!-- <k>commented</k> --><p:r xmlns:p="urn:p" xmlns="urn:d">)"
      R"(<k>1</k><ks>no</ks><p:k>2</p:k><g><k>3</k></g><k/></p:r>)",
      "test document");
  ASSERT_TRUE(doc) << doc.error().ToString();
  EXPECT_EQ(doc->root().name(), "r");
  EXPECT_THAT(Texts(doc->Find("k")), ElementsAre("1", "2", "3", ""));
  EXPECT_THAT(Texts(doc->Find("r")), ElementsAre("1no23"));  // the root itself
  EXPECT_THAT(Texts(doc->root().Find("g")), ElementsAre("3"));
  EXPECT_EQ(doc->root().FindText("ks"), "no");
  EXPECT_EQ(doc->root().FindText("missing"), std::nullopt);
}

TEST(XmlTest, TextAndAttributesAreDecoded) {
  auto doc =
      XmlDocument::Parse(R"(<r xmlns:x="urn:x"><e a="A &amp; B" b='&#x20AC;' x:a="prefixed">)"
                         R"(<![CDATA[a<b]]>&lt;&#65;&quot;</e></r>)",
                         "test document");
  ASSERT_TRUE(doc) << doc.error().ToString();
  const XmlElement e = doc->Find("e").at(0);
  EXPECT_EQ(e.Text(), "a<b<A\"");
  EXPECT_EQ(e.Attribute("a"), "A & B");  // the unprefixed one
  EXPECT_EQ(e.Attribute("b"), "\xE2\x82\xAC");
  EXPECT_EQ(e.Attribute("c"), std::nullopt);
}

TEST(XmlTest, NotWellFormedIsADataErrorWithTheFirstProblemAndItsLine) {
  // libxml2 goes on after the first problem (here to line 5, "premature end of data in tag r"):
  // the first one is where the document went wrong.
  auto mismatch = XmlDocument::Parse("<r>\n<x>\n<y></x>\n</r>\n", "part x.xml");
  ASSERT_FALSE(mismatch);
  EXPECT_EQ(mismatch.error().kind, ErrorKind::kData);
  EXPECT_THAT(mismatch.error().message, HasSubstr("part x.xml is not well-formed XML (line 3: "));
  EXPECT_THAT(mismatch.error().message, HasSubstr("mismatch: y line 3 and x)"));

  for (std::string_view bad : {"", "plain text", "<a>", "<a></a><b/>", "<a>&undeclared;</a>"}) {
    auto doc = XmlDocument::Parse(bad, "doc");
    ASSERT_FALSE(doc) << bad;
    EXPECT_EQ(doc.error().kind, ErrorKind::kData) << bad;
    EXPECT_THAT(doc.error().message, HasSubstr("doc is not well-formed XML (")) << bad;
  }
}

TEST(XmlTest, EntityExpansionBombIsRefused) {
  std::string xml = R"(<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e0 "lol">)";
  for (int i = 1; i <= 9; ++i) {
    xml += "<!ENTITY e" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k) xml += "&e" + std::to_string(i - 1) + ";";
    xml += "\">";
  }
  xml += "]><r>&e9;</r>";  // 10^9 copies of "lol" if expanded
  auto doc = XmlDocument::Parse(xml, "doc");
  ASSERT_FALSE(doc);
  EXPECT_EQ(doc.error().kind, ErrorKind::kData);
}

TEST(XmlTest, ExternalEntitiesAreNotLoaded) {
  auto doc = XmlDocument::Parse(
      R"(<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/hostname">]><r>&x;</r>)",
      "doc");
  ASSERT_TRUE(doc) << doc.error().ToString();
  EXPECT_EQ(doc->root().Text(), "");
}

}  // namespace
}  // namespace databox
