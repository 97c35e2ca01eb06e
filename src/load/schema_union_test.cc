#include "load/schema_union.h"

#include <gtest/gtest.h>

namespace databox::load {
namespace {

normalize::Column Col(std::string name, normalize::DataType type) {
  normalize::Column column;
  column.name = std::move(name);
  column.data_type = type;
  return column;
}

normalize::TableSchema Table(std::string name, std::vector<normalize::Column> columns,
                             std::string parent = "") {
  normalize::TableSchema table;
  table.name = std::move(name);
  table.parent = std::move(parent);
  table.columns = std::move(columns);
  return table;
}

std::vector<std::string> Names(const normalize::TableSchema& table) {
  std::vector<std::string> names;
  for (const auto& c : table.columns) names.push_back(c.name);
  return names;
}

using normalize::DataType;

TEST(SchemaUnion, AddsNewTablesAndColumnsInOrder) {
  SchemaUnion u;
  u.Add({Table("t", {Col("a", DataType::kBigint), Col("b", DataType::kText)})});
  const std::vector<normalize::TableSchema> part = {
      Table("t", {Col("a", DataType::kBigint), Col("c", DataType::kDouble),
                  Col("b", DataType::kText), Col("d", DataType::kBool)}),
      Table("t__x", {Col("value", DataType::kText)}, "t")};
  EXPECT_FALSE(u.Conflict(part));
  u.Add(part);
  ASSERT_EQ(u.tables().size(), 2u);
  EXPECT_EQ(Names(u.tables()[0]), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(u.tables()[1].name, "t__x");
}

TEST(SchemaUnion, AColumnOfAnotherTypeOrFlagsConflicts) {
  SchemaUnion u;
  u.Add({Table("t", {Col("a", DataType::kBigint)})});
  auto conflict = u.Conflict({Table("t", {Col("a", DataType::kDouble)})});
  ASSERT_TRUE(conflict);
  EXPECT_NE(conflict->find("'a'"), std::string::npos) << *conflict;
  normalize::Column variant = Col("a", DataType::kBigint);
  variant.variant = true;
  EXPECT_TRUE(u.Conflict({Table("t", {variant})}));
  EXPECT_TRUE(u.Conflict({Table("t", {Col("a", DataType::kBigint)}, "other")}));
  EXPECT_FALSE(u.Conflict({Table("u", {Col("a", DataType::kDouble)})}));
}

TEST(SchemaUnion, AlignLaysABatchOutInTheUnionsOrderWithNulls) {
  SchemaUnion u;
  u.Add({Table("t", {Col("a", DataType::kBigint), Col("b", DataType::kText)})});
  normalize::TableBatch batch;
  batch.schema = Table("t", {Col("c", DataType::kDouble), Col("a", DataType::kBigint)});
  batch.num_rows = 2;
  batch.columns = {normalize::DoubleValues{1.5, std::nullopt}, normalize::Int64Values{7, 8}};
  u.Add({batch.schema});
  u.Align(batch);
  EXPECT_EQ(Names(batch.schema), (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(batch.columns.size(), 3u);
  EXPECT_EQ(std::get<normalize::Int64Values>(batch.columns[0]), (normalize::Int64Values{7, 8}));
  EXPECT_EQ(std::get<normalize::StringValues>(batch.columns[1]),
            (normalize::StringValues{std::nullopt, std::nullopt}));
  EXPECT_EQ(std::get<normalize::DoubleValues>(batch.columns[2]),
            (normalize::DoubleValues{1.5, std::nullopt}));
}

}  // namespace
}  // namespace databox::load
