#include "duck/escaped_error.h"

#include <gtest/gtest.h>

namespace databox::duck {
namespace {

TEST(EscapedErrorTest, DuckDbsJsonBecomesTypeAndMessageOnOneLine) {
  EXPECT_EQ(
      DescribeEscapedError(
          R"({"exception_type":"HTTP","exception_message":"HTTP GET error reading 'http://h/m1.avro' (HTTP 404 Not Found)\n\nNoSuchKey: gone.","status_code":"404"})"),
      "HTTP error: HTTP GET error reading 'http://h/m1.avro' (HTTP 404 Not Found) NoSuchKey: "
      "gone.");
  EXPECT_EQ(DescribeEscapedError(R"({"exception_message":"no type"})"), "no type");
}

TEST(EscapedErrorTest, OtherTextStaysAsItIsFoldedOnOneLine) {
  EXPECT_EQ(DescribeEscapedError("plain  words\nnext line\n"), "plain  words next line");
  EXPECT_EQ(DescribeEscapedError(R"({"message":"not DuckDB's form"})"),
            R"({"message":"not DuckDB's form"})");
  EXPECT_EQ(DescribeEscapedError(R"({"exception_message": 3})"), R"({"exception_message": 3})");
  EXPECT_EQ(DescribeEscapedError(""), "");
}

}  // namespace
}  // namespace databox::duck
