#include "iceberg/avro/schema.h"

#include <gtest/gtest.h>

namespace databox::avro {
namespace {

constexpr std::string_view kIcebergLike =
    R"({"type": "record", "name": "manifest_entry", "fields": [
  {"name": "status", "type": "int", "field-id": 0},
  {"name": "snapshot_id", "type": ["null", "long"], "default": null, "field-id": 1},
  {"name": "data_file", "type": {"type": "record", "name": "r2", "fields": [
    {"name": "split_offsets", "type": ["null", {"type": "array", "items": "long", "element-id": 133}],
     "default": null, "field-id": 132},
    {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": false}, "field-id": 3}
  ]}, "field-id": 2}
]})";

TEST(SchemaTest, KeepsVerbatimJsonAndIcebergAttributes) {
  auto schema = Schema::Parse(kIcebergLike);
  ASSERT_TRUE(schema) << schema.error().ToString();
  EXPECT_EQ(schema->json(), kIcebergLike);
  const AvroNode& root = schema->root_node();
  ASSERT_EQ(root.type, AvroType::kRecord);
  EXPECT_EQ(root.name, "manifest_entry");
  ASSERT_EQ(root.fields.size(), 3u);
  EXPECT_EQ(root.fields[0].FieldId(), 0);
  EXPECT_EQ(root.fields[1].FieldId(), 1);
  EXPECT_TRUE(root.fields[1].attributes.contains("default"));
  const AvroNode& snapshot_id = schema->node(root.fields[1].type);
  ASSERT_EQ(snapshot_id.type, AvroType::kUnion);
  ASSERT_EQ(snapshot_id.branches.size(), 2u);
  EXPECT_EQ(schema->node(snapshot_id.branches[0]).type, AvroType::kNull);
  EXPECT_EQ(schema->node(snapshot_id.branches[1]).type, AvroType::kLong);

  const AvroNode& data_file = schema->node(root.fields[2].type);
  ASSERT_EQ(data_file.type, AvroType::kRecord);
  const AvroNode& offsets = schema->node(data_file.fields[0].type);
  const AvroNode& array = schema->node(offsets.branches[1]);
  ASSERT_EQ(array.type, AvroType::kArray);
  EXPECT_EQ(array.IntAttribute("element-id"), 133);
  EXPECT_EQ(schema->node(array.items).type, AvroType::kLong);
  const AvroNode& ts = schema->node(data_file.fields[1].type);
  EXPECT_EQ(ts.type, AvroType::kLong);
  EXPECT_EQ(ts.logical_type, "timestamp-micros");
  EXPECT_EQ(ts.attributes.at("adjust-to-utc"), false);
  EXPECT_EQ(schema->FindNamed("r2"), root.fields[2].type);
}

TEST(SchemaTest, ResolvesNamesThroughNamespaces) {
  auto schema =
      Schema::Parse(R"({"type": "record", "name": "Outer", "namespace": "org.x", "fields": [
    {"name": "md5", "type": {"type": "fixed", "name": "MD5", "size": 16}},
    {"name": "again", "type": "MD5"},
    {"name": "full", "type": "org.x.MD5"},
    {"name": "color", "type": {"type": "enum", "name": "Color", "namespace": "other", "symbols": ["R", "G"]}},
    {"name": "color2", "type": "other.Color"},
    {"name": "tags", "type": {"type": "map", "values": "string"}}
  ]})");
  ASSERT_TRUE(schema) << schema.error().ToString();
  const AvroNode& root = schema->root_node();
  EXPECT_EQ(root.name, "org.x.Outer");
  EXPECT_EQ(root.fields[0].type, root.fields[1].type);
  EXPECT_EQ(root.fields[0].type, root.fields[2].type);
  EXPECT_EQ(schema->node(root.fields[0].type).fixed_size, 16);
  EXPECT_EQ(root.fields[3].type, root.fields[4].type);
  EXPECT_EQ(schema->node(root.fields[3].type).name, "other.Color");
  EXPECT_EQ(schema->node(root.fields[3].type).symbols, (std::vector<std::string>{"R", "G"}));
  EXPECT_EQ(schema->node(root.fields[5].type).type, AvroType::kMap);
}

TEST(SchemaTest, RecursiveRecordRefersToItself) {
  auto schema = Schema::Parse(R"({"type": "record", "name": "List", "fields": [
    {"name": "value", "type": "int"}, {"name": "next", "type": ["null", "List"]}]})");
  ASSERT_TRUE(schema) << schema.error().ToString();
  const AvroNode& next = schema->node(schema->root_node().fields[1].type);
  EXPECT_EQ(next.branches[1], schema->root());
}

TEST(SchemaTest, PrimitiveRootsParse) {
  auto bare = Schema::Parse(R"("string")");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->root_node().type, AvroType::kString);
  auto object =
      Schema::Parse(R"({"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2})");
  ASSERT_TRUE(object);
  EXPECT_EQ(object->root_node().logical_type, "decimal");
  EXPECT_EQ(object->root_node().IntAttribute("precision"), 9);
}

TEST(SchemaTest, RejectsMalformedSchemas) {
  for (
      std::string_view bad : {
          R"({"type": "record", "name": "A", "fields": [)",  // bad JSON
          R"("Unknown")",                                    // unknown name
          R"({"type": "record", "name": "A", "fields": [{"name": "x", "type": "B"}]})",  // undefined
                                                                                         // ref
          R"([["null"], "int"])",                 // nested union
          R"([])",                                // empty union
          R"({"type": "record", "fields": []})",  // no name
          R"({"type": "record", "name": "A", "fields": [{"name": "x", "type": "int"}, {"name": "x", "type": "int"}]})",
          R"({"type": "fixed", "name": "F"})",  // no size
          R"({"type": "array"})",               // no items
          R"({"type": "enum", "name": "E", "symbols": [1]})",
          R"(42)",
      }) {
    auto schema = Schema::Parse(bad);
    ASSERT_FALSE(schema) << bad;
    EXPECT_EQ(schema.error().kind, ErrorKind::kData) << bad;
  }
}

}  // namespace
}  // namespace databox::avro
