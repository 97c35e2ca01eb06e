// HTTP methods: the names requests and recordings use, and what an unknown name gives.
#include "http/message.h"

#include <gtest/gtest.h>

#include <string>

namespace databox::http {
namespace {

constexpr Method kMethods[] = {Method::kGet, Method::kHead,  Method::kPost,
                               Method::kPut, Method::kPatch, Method::kDelete};

TEST(MethodTest, NamesAreTheHttpWordsAndParseBackInAnyCase) {
  EXPECT_EQ(MethodName(Method::kGet), "GET");
  EXPECT_EQ(MethodName(Method::kDelete), "DELETE");
  for (Method method : kMethods) {
    const std::string name(MethodName(method));
    EXPECT_EQ(ParseMethod(name).value(), method) << name;
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(c - 'A' + 'a');
    EXPECT_EQ(ParseMethod(lower).value(), method) << lower;
  }
}

TEST(MethodTest, AnUnknownMethodIsADataErrorListingTheMethods) {
  auto parsed = ParseMethod("TRACE");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().kind, ErrorKind::kData);
  EXPECT_EQ(parsed.error().message,
            "unsupported HTTP method 'TRACE': expected one of GET, HEAD, POST, PUT, PATCH, DELETE");
}

}  // namespace
}  // namespace databox::http
