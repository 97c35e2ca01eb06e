#include "iceberg/spec/table_identifier.h"

#include <gtest/gtest.h>

namespace databox::iceberg {
namespace {

TEST(Identifier, DottedFormsRoundTrip) {
  EXPECT_EQ(NamespaceToString({"a", "b"}), "a.b");
  EXPECT_EQ(NamespaceFromString("a.b"), (Namespace{"a", "b"}));
  EXPECT_TRUE(NamespaceFromString("").empty());
  auto id = ParseTableIdentifier("raw_ebird.observations");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->ns, Namespace{"raw_ebird"});
  EXPECT_EQ(id->name, "observations");
  EXPECT_EQ(id->ToString(), "raw_ebird.observations");
}

TEST(Identifier, RejectsAmbiguousNames) {
  EXPECT_EQ(ParseTableIdentifier("lonely").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(ParseTableIdentifier("a..t").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(ValidateNamespace({"a.b"}).error().kind, ErrorKind::kConfig);
  EXPECT_EQ(ValidateNamespace({}).error().kind, ErrorKind::kConfig);
  EXPECT_TRUE(ValidateNamespace({}, /*allow_root=*/true).has_value());
  EXPECT_EQ(ValidateTableIdentifier({.ns = {"a"}, .name = ""}).error().kind, ErrorKind::kConfig);
}

}  // namespace
}  // namespace databox::iceberg
