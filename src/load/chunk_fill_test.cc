// Normalized values as DuckDB reads them through a ChunkSource (chunk_fill.h), here a
// StreamedTable holding one batch.
#include "load/chunk_fill.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "duck/chunk_scan.h"
#include "duck/database.h"
#include "load/staging.h"
#include "load/streamed_table.h"

namespace databox::load {
namespace {

//! A batch of table "t": text column "s" and binary column "b", one row per value.
normalize::TableBatch TextBatch(const std::vector<std::optional<std::string>>& text,
                                const std::string& binary_value = "bytes") {
  normalize::TableBatch batch;
  batch.schema.name = "t";
  batch.schema.columns = {{.name = "s", .data_type = normalize::DataType::kText},
                          {.name = "b", .data_type = normalize::DataType::kBinary}};
  normalize::StringValues s, b;
  for (const auto& value : text) {
    if (value) {
      s.push_back(*value);
    } else {
      s.push_null();
    }
    b.push_back(binary_value);
  }
  batch.columns = {std::move(s), std::move(b)};
  batch.num_rows = text.size();
  return batch;
}

//! A closed StreamedTable holding `batch` alone.
std::unique_ptr<StreamedTable> Holding(normalize::TableBatch batch) {
  auto table = std::make_unique<StreamedTable>(batch.schema, 1, 1);
  EXPECT_TRUE(table->Push(std::move(batch)));
  table->Close();
  return table;
}

struct Db {
  duck::Database db = duck::Database::Open("").value();
  duck::Connection conn = duck::Connection::Open(db).value();
};

TEST(ChunkFill, TextAcrossChunksReadsBackUnchanged) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  // 5,000 rows (three DuckDB chunks): multi-byte characters, values longer and shorter than
  // DuckDB's 12-byte inline limit, and nulls.
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 5000; ++i) {
    if (i % 7 == 3) {
      values.push_back(std::nullopt);
    } else {
      values.push_back(i % 2 ? "caf\xc3\xa9 " + std::to_string(i)
                             : "\xe2\x82\xac" + std::string(20, 'x'));
    }
  }
  auto table = Holding(TextBatch(values));
  duck::ChunkScan scan(*table);
  auto result = db.conn.Query(
      "SELECT count(s), count(DISTINCT s), max(length(s)), "
      "count(*) FILTER (WHERE s = 'caf\xc3\xa9 4999') FROM " +
      scan.relation());
  ASSERT_TRUE(result) << result.error().message;
  int64_t non_null = 0;
  std::set<std::string> distinct;
  for (const auto& v : values) {
    non_null += v.has_value();
    if (v) distinct.insert(*v);
  }
  EXPECT_EQ(result->GetInt64(0, 0).value_or(-1), non_null);
  EXPECT_EQ(result->GetInt64(1, 0).value_or(-1), static_cast<int64_t>(distinct.size()));
  EXPECT_EQ(result->GetInt64(2, 0).value_or(-1), 21);
  EXPECT_EQ(result->GetInt64(3, 0).value_or(-1), 1);
}

TEST(ChunkFill, InvalidUtf8FailsTheScanNamingTheCell) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  std::vector<std::optional<std::string>> values(3000, std::string("fine"));
  values[2500] = "bad \xff byte";
  auto table = Holding(TextBatch(values));
  duck::ChunkScan scan(*table);
  auto result = db.conn.Query("SELECT count(s) FROM " + scan.relation());
  ASSERT_FALSE(result) << "invalid UTF-8 must not become a NULL or a stored value";
  EXPECT_NE(result.error().message.find("table t, column s, row 2501"), std::string::npos)
      << result.error().message;
  EXPECT_NE(result.error().message.find("not valid UTF-8"), std::string::npos);
}

TEST(ChunkFill, ACharacterSplitBetweenTwoValuesIsInvalid) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  // Together the bytes read "a\xc3\xa9b" (valid); each value alone is not.
  auto table = Holding(TextBatch({"a\xc3",
                                  "\xa9"
                                  "b"}));
  duck::ChunkScan scan(*table);
  auto result = db.conn.Query("SELECT count(s) FROM " + scan.relation());
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("column s, row 1"), std::string::npos)
      << result.error().message;
}

TEST(ChunkFill, BinaryValuesNeedNotBeUtf8) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  auto table = Holding(TextBatch({"x", "y"}, std::string("\xff\x00\xfe", 3)));
  duck::ChunkScan scan(*table);
  auto result = db.conn.Query("SELECT count(*), max(octet_length(b)) FROM " + scan.relation());
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->GetInt64(0, 0).value_or(-1), 2);
  EXPECT_EQ(result->GetInt64(1, 0).value_or(-1), 3);
}

TEST(StagingArea, InvalidUtf8IsAnErrorNotANull) {
  Db db;
  auto staging = StagingArea::Make(&db.conn, "stage");
  ASSERT_TRUE(staging) << staging.error().message;
  auto appended = staging->Append(TextBatch({"ok", "\xc0\xaf"}));
  ASSERT_FALSE(appended);
  EXPECT_EQ(appended.error().kind, ErrorKind::kData);
  EXPECT_NE(appended.error().message.find("column s, row 2"), std::string::npos)
      << appended.error().message;
}

}  // namespace
}  // namespace databox::load
