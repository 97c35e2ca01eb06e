#include "duck/chunk_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "duck/test_support.h"

namespace databox::duck {
namespace {

//! Parts of 0..n-1 rows: column id = part * 100000 + row, column label = "p<part>-<row>", and
//! every third label NULL.
class CountingSource final : public ChunkSource {
 public:
  explicit CountingSource(std::vector<uint64_t> part_rows) : rows_(std::move(part_rows)) {}
  const std::vector<std::string>& column_names() const override { return names_; }
  const std::vector<duckdb_type>& column_types() const override { return types_; }
  std::size_t part_count() const override { return rows_.size(); }
  uint64_t part_rows(std::size_t part) const override { return rows_[part]; }
  Status Fill(std::size_t part, uint64_t begin, uint64_t count, DataChunk& chunk) const override {
    auto* ids = chunk.Data<int64_t>(0);
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t row = begin + i;
      ids[i] = static_cast<int64_t>(part * 100000 + row);
      if (row % 3 == 2) {
        chunk.SetNull(1, i);
      } else {
        chunk.SetString(1, i, "p" + std::to_string(part) + "-" + std::to_string(row));
      }
    }
    return Ok();
  }

 private:
  std::vector<uint64_t> rows_;
  std::vector<std::string> names_{"id", "label"};
  std::vector<duckdb_type> types_{DUCKDB_TYPE_BIGINT, DUCKDB_TYPE_VARCHAR};
};

TEST(ChunkScan, ReadsEveryRowOfEveryPartOnce) {
  auto db = testing::OpenMemoryDb();
  ASSERT_TRUE(RegisterChunkScan(db.conn).has_value());
  ASSERT_TRUE(RegisterChunkScan(db.conn).has_value()) << "registering twice is harmless";
  // Part sizes around DuckDB's chunk size (2048), including an empty part.
  const std::vector<uint64_t> sizes = {5000, 0, 2048, 1, 4097};
  CountingSource source(sizes);
  ChunkScan scan(source);
  uint64_t expected_rows = 0;
  uint64_t expected_labels = 0;
  int64_t expected_sum = 0;
  for (std::size_t part = 0; part < sizes.size(); ++part) {
    for (uint64_t row = 0; row < sizes[part]; ++row) {
      ++expected_rows;
      if (row % 3 != 2) ++expected_labels;
      expected_sum += static_cast<int64_t>(part * 100000 + row);
    }
  }
  auto result = db.conn.Query(
      "SELECT count(*), count(label), sum(id)::BIGINT, count(DISTINCT id) FROM " + scan.relation());
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->GetInt64(0, 0).value_or(-1), static_cast<int64_t>(expected_rows));
  EXPECT_EQ(result->GetInt64(1, 0).value_or(-1), static_cast<int64_t>(expected_labels));
  EXPECT_EQ(result->GetInt64(2, 0).value_or(-1), expected_sum);
  EXPECT_EQ(result->GetInt64(3, 0).value_or(-1), static_cast<int64_t>(expected_rows));
  auto label = db.conn.Query("SELECT label FROM " + scan.relation() + " WHERE id = 400004");
  ASSERT_TRUE(label.has_value()) << label.error().message;
  ASSERT_EQ(label->row_count(), 1u);
  EXPECT_EQ(label->GetString(0, 0).value_or("<error>"), "p4-4");
}

TEST(ChunkScan, AnUnregisteredHandleIsAnError) {
  auto db = testing::OpenMemoryDb();
  ASSERT_TRUE(RegisterChunkScan(db.conn).has_value());
  std::string relation;
  {
    CountingSource source({10});
    ChunkScan scan(source);
    relation = scan.relation();
  }
  auto result = db.conn.Query("SELECT count(*) FROM " + relation);
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message.find("no rows are registered"), std::string::npos)
      << result.error().message;
}

//! One part of strings that the chunk references (DataChunk::ReferenceString), not copies.
class ReferencingSource final : public ChunkSource {
 public:
  explicit ReferencingSource(std::vector<std::string> values) : values_(std::move(values)) {}
  const std::vector<std::string>& column_names() const override { return names_; }
  const std::vector<duckdb_type>& column_types() const override { return types_; }
  std::size_t part_count() const override { return 1; }
  uint64_t part_rows(std::size_t) const override { return values_.size(); }
  Status Fill(std::size_t, uint64_t begin, uint64_t count, DataChunk& chunk) const override {
    for (uint64_t i = 0; i < count; ++i) chunk.ReferenceString(0, i, values_[begin + i]);
    return Ok();
  }

 private:
  std::vector<std::string> values_;
  std::vector<std::string> names_{"s"};
  std::vector<duckdb_type> types_{DUCKDB_TYPE_VARCHAR};
};

TEST(ChunkScan, ReferencedStringsReadAsTheirValues) {
  auto db = testing::OpenMemoryDb();
  ASSERT_TRUE(RegisterChunkScan(db.conn).has_value());
  // Around the 12-byte inline limit and the 4-byte prefix, sharing prefixes, plus the empty one.
  const std::vector<std::string> values = {"",
                                           "abcd",
                                           "abcdefghijkl",
                                           "abcdefghijklm",
                                           "abcdefghijklmnopqrstuvwxyz",
                                           "abcdefghijklmnopqrstuvwxyZ",
                                           "h\xc3\xa9llo w\xc3\xb6rld, longer than twelve"};
  ReferencingSource source(values);
  ChunkScan scan(source);
  auto result = db.conn.Query("SELECT s, length(s) FROM " + scan.relation() + " ORDER BY s");
  ASSERT_TRUE(result.has_value()) << result.error().message;
  ASSERT_EQ(result->row_count(), values.size());
  std::vector<std::string> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    EXPECT_EQ(result->GetString(0, i).value_or("<error>"), sorted[i]);
  }
  auto equal = db.conn.Query("SELECT count(*) FROM " + scan.relation() +
                             " WHERE s = 'abcdefghijklmnopqrstuvwxyz' OR s = 'abcdefghijkl'");
  ASSERT_TRUE(equal.has_value()) << equal.error().message;
  EXPECT_EQ(equal->GetInt64(0, 0).value_or(-1), 2);
}

//! A source whose second chunk cannot be filled.
class FailingSource final : public ChunkSource {
 public:
  const std::vector<std::string>& column_names() const override { return names_; }
  const std::vector<duckdb_type>& column_types() const override { return types_; }
  std::size_t part_count() const override { return 1; }
  uint64_t part_rows(std::size_t) const override { return 3 * DataChunk::Capacity(); }
  Status Fill(std::size_t, uint64_t begin, uint64_t count, DataChunk& chunk) const override {
    if (begin > 0) return MakeError(ErrorKind::kData, "row " + std::to_string(begin) + " is bad");
    auto* ids = chunk.Data<int64_t>(0);
    for (uint64_t i = 0; i < count; ++i) ids[i] = static_cast<int64_t>(i);
    return Ok();
  }

 private:
  std::vector<std::string> names_{"id"};
  std::vector<duckdb_type> types_{DUCKDB_TYPE_BIGINT};
};

TEST(ChunkScan, AFillErrorFailsTheQueryWithItsMessage) {
  auto db = testing::OpenMemoryDb();
  ASSERT_TRUE(RegisterChunkScan(db.conn).has_value());
  FailingSource source;
  ChunkScan scan(source);
  auto result = db.conn.Query("SELECT count(*) FROM " + scan.relation());
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message.find("row 2048 is bad"), std::string::npos)
      << result.error().message;
}

}  // namespace
}  // namespace databox::duck
