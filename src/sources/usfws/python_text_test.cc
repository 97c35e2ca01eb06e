#include "sources/usfws/python_text.h"

#include <gtest/gtest.h>

namespace databox::source {
namespace {

// Expected values are what CPython 3 prints for the same input.
TEST(PythonTextTest, CollapseWhitespaceIsStrSplitJoin) {
  EXPECT_EQ(CollapseWhitespace("  a \t\n b  "), "a b");
  EXPECT_EQ(CollapseWhitespace("a\xC2\xA0\xE2\x80\x83"
                               "b\x1f"
                               "c"),
            "a b c");  // NBSP, em space
  EXPECT_EQ(CollapseWhitespace("\xE2\x80\x8B"
                               "a"),
            "\xE2\x80\x8B"
            "a");  // U+200B is not space
  EXPECT_EQ(CollapseWhitespace(""), "");
  EXPECT_EQ(CollapseWhitespace(" \n "), "");
}

TEST(PythonTextTest, ReprQuotesAndEscapesAsPython) {
  EXPECT_EQ(PythonRepr("Amazilia beryllina"), "'Amazilia beryllina'");
  EXPECT_EQ(PythonRepr("O'Brien"), "\"O'Brien\"");
  EXPECT_EQ(PythonRepr("say \"hi\""), "'say \"hi\"'");
  EXPECT_EQ(PythonRepr("it's \"x\""), "'it\\'s \"x\"'");
  EXPECT_EQ(PythonRepr("a\\b"), "'a\\\\b'");
  EXPECT_EQ(PythonRepr("t\tn\nr\r\x7f"), "'t\\tn\\nr\\r\\x7f'");
  EXPECT_EQ(PythonRepr("Caf\xC3\xA9"), "'Caf\xC3\xA9'");  // printable: kept
  EXPECT_EQ(PythonRepr("a\xC2\xA0"
                       "b\xE2\x80\x8B"
                       "c"),
            "'a\\xa0b\\u200bc'");
  EXPECT_EQ(PythonRepr("\xF3\xB0\x80\x80"), "'\\U000f0000'");  // private use plane 15
}

TEST(PythonTextTest, AsciiJsonArrayIsCompactAndEscaped) {
  EXPECT_EQ(AsciiJsonArray({}), "[]");
  EXPECT_EQ(AsciiJsonArray({"Berylline Hummingbird"}), "[\"Berylline Hummingbird\"]");
  EXPECT_EQ(AsciiJsonArray({"Caf\xC3\xA9", "a\"b\\c/d", "\xF0\x9F\x90\xA6"}),
            "[\"Caf\\u00e9\",\"a\\\"b\\\\c/d\",\"\\ud83d\\udc26\"]");
}

TEST(PythonTextTest, FormQuerySortsKeysAndEncodesAsUrlencode) {
  EXPECT_EQ(FormQuery({{"species", "[\"Berylline Hummingbird\"]"},
                       {"$top", "100"},
                       {"$skip", "0"},
                       {"$orderby", "field_document_publication_date desc"}}),
            "%24orderby=field_document_publication_date+desc&%24skip=0&%24top=100&species=%5B%"
            "22Berylline+Hummingbird%22%5D");
  EXPECT_EQ(FormQuery({{"k", "a~b-c_d.e/f+g"}}), "k=a~b-c_d.e%2Ff%2Bg");
}

}  // namespace
}  // namespace databox::source
