#include "iceberg/spec/types.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "iceberg/spec/schema.h"

namespace databox::iceberg {
namespace {

using nlohmann::json;

TEST(TypesTest, PrimitiveStringsFollowTheSpec) {
  EXPECT_EQ(Type::Decimal(9, 2).ToJson(), json("decimal(9, 2)"));
  EXPECT_EQ(Type::Fixed(16).ToJson(), json("fixed[16]"));
  EXPECT_EQ(Type::TimestampTz().ToJson(), json("timestamptz"));
  EXPECT_EQ(*Type::ParsePrimitive("decimal(9,2)"), Type::Decimal(9, 2));
  EXPECT_EQ(*Type::ParsePrimitive("fixed[3]"), Type::Fixed(3));
  EXPECT_FALSE(Type::ParsePrimitive("decimal(39, 2)").has_value());
  EXPECT_FALSE(Type::ParsePrimitive("varchar").has_value());
  EXPECT_EQ(Type::ParsePrimitive("varchar").error().kind, ErrorKind::kData);
}

TEST(TypesTest, NestedTypeJsonUsesSpecFieldNames) {
  // Example from the spec's JSON serialization table.
  const json list =
      json::parse(R"({"type":"list","element-id":3,"element-required":true,"element":"string"})");
  auto parsed = Type::FromJson(list);
  ASSERT_TRUE(parsed) << parsed.error().ToString();
  EXPECT_EQ(parsed->id(), TypeId::kList);
  EXPECT_EQ(parsed->element().id, 3);
  EXPECT_TRUE(parsed->element().required);
  EXPECT_EQ(parsed->ToJson(), list);

  const json map = json::parse(
      R"({"type":"map","key-id":4,"key":"string","value-id":5,"value-required":false,"value":"double"})");
  auto parsed_map = Type::FromJson(map);
  ASSERT_TRUE(parsed_map);
  EXPECT_EQ(parsed_map->key().id, 4);
  EXPECT_EQ(parsed_map->value().type, Type::Double());
  EXPECT_EQ(parsed_map->ToJson(), map);
}

TEST(TypesTest, FieldErrorsNameTheField) {
  const json bad =
      json::parse(R"({"type":"struct","fields":[{"id":1,"name":"x","required":true}]})");
  auto parsed = Type::FromJson(bad);
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().message.find("\"x\""), std::string::npos) << parsed.error().message;
  EXPECT_NE(parsed.error().message.find("\"type\""), std::string::npos);
}

Schema NestedSchema() {
  return Schema(
      3,
      {NestedField{1, "id", true, Type::Long(), {}},
       NestedField{
           2,
           "loc",
           false,
           Type::Struct({NestedField{4, "lat", true, Type::Double(), {}},
                         NestedField{5, "lon", true, Type::Double(), std::string("degrees")}}),
           {}},
       NestedField{3, "tags", false, Type::List(6, false, Type::String()), {}}},
      {1});
}

TEST(SchemaTest, JsonRoundTripAndLookups) {
  const Schema schema = NestedSchema();
  const json j = schema.ToJson();
  EXPECT_EQ(j["schema-id"], 3);
  EXPECT_EQ(j["identifier-field-ids"], json::array({1}));
  EXPECT_EQ(j["fields"][1]["type"]["fields"][1]["doc"], "degrees");
  auto back = Schema::FromJson(j);
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(*back, schema);

  EXPECT_EQ(schema.HighestFieldId(), 6);
  ASSERT_NE(schema.FindFieldById(5), nullptr);
  EXPECT_EQ(schema.FindFieldById(5)->name, "lon");
  EXPECT_EQ(schema.FindFieldByName("loc.lat")->id, 4);
  EXPECT_EQ(schema.FindFieldByName("tags.element")->id, 6);
  EXPECT_EQ(schema.FindFieldByName("lat"), nullptr);
  EXPECT_EQ(schema.FindNameById(4), "loc.lat");
  EXPECT_TRUE(schema.Validate());
}

TEST(SchemaTest, ValidateRejectsDuplicateIdsAndBadIdentifiers) {
  Schema dup(
      0, {NestedField{1, "a", true, Type::Int(), {}}, NestedField{1, "b", true, Type::Int(), {}}});
  EXPECT_FALSE(dup.Validate());
  Schema optional_identifier(0, {NestedField{1, "a", false, Type::Int(), {}}}, {1});
  EXPECT_FALSE(optional_identifier.Validate());
}

TEST(SchemaTest, FreshIdsNumberEachLevelBeforeChildren) {
  std::vector<NestedField> fields = NestedSchema().fields();
  int32_t next = 1;
  std::unordered_map<int32_t, int32_t> old_to_new;
  AssignFreshFieldIds(fields, next, &old_to_new);
  // Top level 1,2,3; then loc's children 4,5; then the list element 6.
  EXPECT_EQ(fields[0].id, 1);
  EXPECT_EQ(fields[2].id, 3);
  EXPECT_EQ(fields[1].type.fields()[0].id, 4);
  EXPECT_EQ(fields[2].type.element().id, 6);
  EXPECT_EQ(next, 7);
}

}  // namespace
}  // namespace databox::iceberg
