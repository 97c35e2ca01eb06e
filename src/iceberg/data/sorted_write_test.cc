// Sort-on-write: data files of a table with a default sort order hold their rows in it, on a
// DuckDB with several threads that does not keep insertion order (as a load's connection).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "iceberg/data/data_files.h"
#include "iceberg/data/sort_sql.h"
#include "iceberg/data/test_util.h"

namespace databox::iceberg {
namespace {

//! Rows of (id, name) in scrambled order: id i * 7919 mod n, names repeating every 37 ids.
std::string ScrambledRows(int n) {
  const std::string id = "(i * 7919 % " + std::to_string(n) + ")";
  return "SELECT " + id + " AS id, 'bird ' || (" + id + " % 37)::VARCHAR AS name FROM range(" +
         std::to_string(n) + ") t(i)";
}

SortOrder ById(SortDirection direction) {
  return SortOrder{1, {SortField{1, Transform::Identity(), direction, NullOrder::kNullsFirst}}};
}

class SortedWriteTest : public InMemoryCatalogDuckFixture {
 protected:
  void SetUp() override {
    threads_ = 4;
    InMemoryCatalogDuckFixture::SetUp();
    ASSERT_TRUE(catalog_->CreateNamespace({"raw"}, {}));
    ASSERT_TRUE(conn_->Execute("SET preserve_insertion_order = false"));
  }

  TableMetadata Create(const std::string& name, PartitionSpec spec, SortOrder order,
                       Properties properties = {}) {
    auto created =
        catalog_->CreateTable({{"raw"}, name}, BirdSchema(), spec, order, properties, std::nullopt);
    EXPECT_TRUE(created) << created.error().ToString();
    return created ? created->metadata : TableMetadata{};
  }

  std::vector<DataFile> Write(const TableMetadata& metadata, const std::string& select) {
    auto files = WriteDataFiles(*conn_, *io_, metadata, select);
    EXPECT_TRUE(files) << files.error().ToString();
    return files ? *files : std::vector<DataFile>{};
  }

  //! Ids of a written file in the order its rows are stored.
  std::vector<int64_t> IdsInFileOrder(const DataFile& file) {
    const std::string path = file.file_path.substr(std::string("file://").size());
    auto rows = conn_->Query("SELECT id FROM read_parquet('" + path +
                             "', file_row_number = true) ORDER BY file_row_number");
    EXPECT_TRUE(rows) << rows.error().ToString();
    std::vector<int64_t> ids;
    for (uint64_t r = 0; rows && r < rows->row_count(); ++r) ids.push_back(*rows->GetInt64(0, r));
    return ids;
  }
};

TEST_F(SortedWriteTest, UnpartitionedFileHoldsItsRowsInTheSortOrder) {
  const int n = 400000;  // several row groups, written by several threads
  const auto files = Write(Create("asc", PartitionSpec::Unpartitioned(), ById(SortDirection::kAsc)),
                           ScrambledRows(n));
  ASSERT_EQ(files.size(), 1u);
  const auto ids = IdsInFileOrder(files[0]);
  ASSERT_EQ(ids.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ASSERT_EQ(ids[i], i) << "row " << i;
  // The file's bounds are those of the sorted column.
  EXPECT_EQ(files[0].record_count, n);
}

TEST_F(SortedWriteTest, FilesAboveTheTargetSizeAreSplitIntoSortedRanges) {
  const int n = 300000;
  const auto files = Write(Create("desc", PartitionSpec::Unpartitioned(),
                                  ById(SortDirection::kDesc), {{kTargetFileSizeProperty, "60000"}}),
                           ScrambledRows(n));
  ASSERT_GT(files.size(), 1u);
  for (const auto& file : files) EXPECT_LT(file.file_size_in_bytes, 2 * 60000) << file.file_path;
  std::vector<int64_t> all;
  for (const auto& file : files) {
    const auto ids = IdsInFileOrder(file);
    EXPECT_EQ(static_cast<int64_t>(ids.size()), file.record_count);
    all.insert(all.end(), ids.begin(), ids.end());
  }
  // Published in order: the files' rows one after another are all ids, descending.
  ASSERT_EQ(all.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ASSERT_EQ(all[i], n - 1 - i) << "row " << i;
}

// The cut into row ranges reads read_parquet's file_row_number, which DuckDB refuses for a file
// with a column of that name: such a table gets its one sorted file, larger than the target.
TEST_F(SortedWriteTest, AColumnNamedFileRowNumberKeepsOneSortedFileInsteadOfFailing) {
  NestedField id{.id = 1, .name = "id", .required = false, .type = Type::Long(), .doc = {}};
  NestedField pos{
      .id = 2, .name = "file_row_number", .required = false, .type = Type::Long(), .doc = {}};
  auto created = catalog_->CreateTable({{"raw"}, "clash"}, Schema(0, {id, pos}),
                                       PartitionSpec::Unpartitioned(), ById(SortDirection::kAsc),
                                       {{kTargetFileSizeProperty, "60000"}}, std::nullopt);
  ASSERT_TRUE(created) << created.error().ToString();
  const int n = 300000;
  const auto files = Write(created->metadata, "SELECT (i * 7919 % " + std::to_string(n) +
                                                  ") AS id, i AS file_row_number FROM range(" +
                                                  std::to_string(n) + ") t(i)");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_GT(files[0].file_size_in_bytes, 60000);
  // File order, read without file_row_number: one thread keeping insertion order.
  ASSERT_TRUE(conn_->Execute("SET preserve_insertion_order = true"));
  ASSERT_TRUE(conn_->Execute("SET threads = 1"));
  auto rows = conn_->Query("SELECT id FROM read_parquet('" +
                           files[0].file_path.substr(std::string("file://").size()) + "')");
  ASSERT_TRUE(rows) << rows.error().ToString();
  ASSERT_EQ(rows->row_count(), static_cast<uint64_t>(n));
  for (uint64_t r = 0; r < rows->row_count(); ++r) ASSERT_EQ(*rows->GetInt64(0, r), r) << r;
}

TEST_F(SortedWriteTest, EachPartitionsFileIsSortedAndKeepsItsPartitionValue) {
  PartitionSpec spec;
  spec.fields = {PartitionField{2, 0, "name", Transform::Identity()}};
  const int n = 200000;
  const auto files = Write(Create("parts", spec, ById(SortDirection::kAsc)), ScrambledRows(n));
  ASSERT_EQ(files.size(), 37u);
  int64_t rows = 0;
  for (const auto& file : files) {
    ASSERT_EQ(file.partition.size(), 1u);
    ASSERT_TRUE(file.partition[0].has_value());
    const auto ids = IdsInFileOrder(file);
    ASSERT_FALSE(ids.empty());
    const std::string name = file.partition[0]->ToString();
    for (size_t i = 0; i < ids.size(); ++i) {
      ASSERT_EQ("bird " + std::to_string(ids[i] % 37), name) << file.file_path;
      if (i > 0) {
        ASSERT_LT(ids[i - 1], ids[i]) << file.file_path << " row " << i;
      }
    }
    rows += file.record_count;
  }
  EXPECT_EQ(rows, n);
}

TEST(SortOrderClauseTest, OrdersByEachTermsValueWithItsDirectionAndNullOrder) {
  NestedField id{.id = 1, .name = "id", .required = true, .type = Type::Long(), .doc = {}};
  NestedField at{.id = 2, .name = "at", .required = false, .type = Type::TimestampTz(), .doc = {}};
  const Schema schema(0, {id, at});
  EXPECT_EQ(*SortOrderClause(schema, SortOrder::Unsorted()), "");
  SortOrder order{
      1,
      {SortField{2, *Transform::Parse("day"), SortDirection::kAsc, NullOrder::kNullsLast},
       SortField{1, Transform::Identity(), SortDirection::kDesc, NullOrder::kNullsFirst},
       SortField{1, *Transform::Parse("void"), SortDirection::kAsc, NullOrder::kNullsFirst}}};
  const auto clause = SortOrderClause(schema, order);
  ASSERT_TRUE(clause) << clause.error().ToString();
  EXPECT_EQ(clause->rfind("ORDER BY ", 0), 0u) << *clause;
  EXPECT_NE(clause->find("epoch_us(\"at\")"), std::string::npos) << *clause;
  EXPECT_NE(clause->find(" ASC NULLS LAST, \"id\" DESC NULLS FIRST"), std::string::npos) << *clause;
  EXPECT_EQ(clause->find("NULL AS"), std::string::npos) << "void terms order nothing: " << *clause;
  SortOrder missing{
      1, {SortField{9, Transform::Identity(), SortDirection::kAsc, NullOrder::kNullsFirst}}};
  EXPECT_FALSE(SortOrderClause(schema, missing));
}

}  // namespace
}  // namespace databox::iceberg
