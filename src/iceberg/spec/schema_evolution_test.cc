#include "iceberg/spec/schema_evolution.h"

#include <gtest/gtest.h>

namespace databox::iceberg {
namespace {

Schema Current() {
  return Schema(
      2,
      {NestedField{1, "id", true, Type::Int(), {}},
       NestedField{2, "score", true, Type::Float(), {}},
       NestedField{3, "amount", false, Type::Decimal(9, 2), {}},
       NestedField{
           4, "geo", false, Type::Struct({NestedField{5, "lat", false, Type::Double(), {}}}), {}}},
      {1});
}

TEST(UnionByNameTest, WidensPromotesAndAddsOptionalColumns) {
  // Incoming ids are arbitrary: matching is by name.
  Schema incoming(0, {NestedField{9, "id", true, Type::Long(), {}},
                      NestedField{8, "score", false, Type::Double(), {}},
                      NestedField{7, "amount", false, Type::Decimal(12, 2), {}},
                      NestedField{6,
                                  "geo",
                                  false,
                                  Type::Struct({NestedField{1, "lat", false, Type::Double(), {}},
                                                NestedField{2, "lon", false, Type::Double(), {}}}),
                                  {}},
                      NestedField{5, "tags", false, Type::List(4, true, Type::String()), {}}});
  auto merged = UnionByName(Current(), incoming, 10);
  ASSERT_TRUE(merged) << merged.error().ToString();
  EXPECT_EQ(merged->schema_id(), 3);
  EXPECT_EQ(merged->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_EQ(merged->FindFieldByName("id")->type, Type::Long());
  EXPECT_EQ(merged->FindFieldByName("id")->id, 1);
  EXPECT_EQ(merged->FindFieldByName("score")->type, Type::Double());
  EXPECT_FALSE(merged->FindFieldByName("score")->required);
  EXPECT_EQ(merged->FindFieldByName("amount")->type, Type::Decimal(12, 2));
  // New ids start above the table's last-column-id (10), not the schema's highest id (5).
  EXPECT_EQ(merged->FindFieldByName("geo.lon")->id, 11);
  EXPECT_EQ(merged->FindFieldByName("tags")->id, 12);
  EXPECT_EQ(merged->FindFieldByName("tags.element")->id, 13);
  EXPECT_TRUE(merged->Validate());
}

TEST(UnionByNameTest, NarrowerOrMissingColumnsChangeNothing) {
  Schema incoming(0, {NestedField{1, "id", true, Type::Int(), {}},
                      NestedField{2, "amount", false, Type::Decimal(5, 2), {}}});
  auto merged = UnionByName(Current(), incoming);
  ASSERT_TRUE(merged);
  EXPECT_EQ(*merged, Current());
}

TEST(UnionByNameTest, ANewRequiredColumnIsAddedAsOptional) {
  // The table's rows have no value for it (e.g. _dlt_load_id appended to another engine's table).
  auto merged =
      UnionByName(Current(), Schema(0, {NestedField{1, "load", true, Type::String(), {}}}));
  ASSERT_TRUE(merged) << merged.error().message;
  ASSERT_NE(merged->FindFieldByName("load"), nullptr);
  EXPECT_FALSE(merged->FindFieldByName("load")->required);
  EXPECT_EQ(merged->schema_id(), Current().schema_id() + 1);
}

TEST(UnionByNameTest, RejectsIncompatibleChanges) {
  auto reject = [](NestedField f) {
    auto r = UnionByName(Current(), Schema(0, {std::move(f)}));
    EXPECT_FALSE(r);
    if (!r) {
      EXPECT_EQ(r.error().kind, ErrorKind::kData);
    }
    return r ? std::string() : r.error().message;
  };
  EXPECT_NE(reject(NestedField{1, "id", true, Type::String(), {}}).find("\"id\""),
            std::string::npos);
  reject(NestedField{1, "amount", false, Type::Decimal(12, 3), {}});
  reject(NestedField{1, "score", false, Type::Int(), {}});
  reject(NestedField{1, "geo", false, Type::Double(), {}});
  EXPECT_NE(reject(NestedField{1,
                               "geo",
                               false,
                               Type::Struct({NestedField{1, "lat", false, Type::String(), {}}}),
                               {}})
                .find("geo.lat"),
            std::string::npos);
}

}  // namespace
}  // namespace databox::iceberg
