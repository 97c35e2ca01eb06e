#include "load/streamed_table.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <thread>

#include "duck/chunk_scan.h"
#include "duck/database.h"
#include "duck/quote.h"

namespace databox::load {
namespace {

normalize::TableSchema NumberedSchema(std::size_t extra_columns = 0) {
  normalize::TableSchema schema;
  schema.name = "numbered";
  schema.columns = {{.name = "n", .data_type = normalize::DataType::kBigint},
                    {.name = "label", .data_type = normalize::DataType::kText}};
  for (std::size_t i = 0; i < extra_columns; ++i) {
    schema.columns.push_back(
        {.name = "extra" + std::to_string(i), .data_type = normalize::DataType::kBigint});
  }
  return schema;
}

//! Rows first..first+count-1 of table "numbered": n and a label longer than DuckDB's 12-byte
//! inline strings, so chunks point into the batch's own memory.
normalize::TableBatch Numbered(int64_t first, int64_t count) {
  normalize::TableBatch batch;
  batch.schema = NumberedSchema();
  normalize::Int64Values n;
  normalize::StringValues label;
  for (int64_t i = first; i < first + count; ++i) {
    n.push_back(i);
    label.push_back("row number " + std::to_string(i) + " of the stream");
  }
  batch.columns = {std::move(n), std::move(label)};
  batch.num_rows = static_cast<std::size_t>(count);
  return batch;
}

struct Db {
  duck::Database db = duck::Database::Open("").value();
  duck::Connection conn = duck::Connection::Open(db).value();
};

constexpr int64_t kBatches = 60;
constexpr int64_t kBatchRows = 5000;

//! Pushes kBatches batches from another thread, checking after each push that no more batches
//! are held than the bound (unread + one per scanning thread); then closes the table.
std::future<std::size_t> Produce(StreamedTable& table, std::size_t bound) {
  return std::async(std::launch::async, [&table, bound] {
    std::size_t most_held = 0;
    for (int64_t b = 0; b < kBatches; ++b) {
      if (!table.Push(Numbered(b * kBatchRows, kBatchRows))) break;
      most_held = std::max(most_held, table.held_batches());
      EXPECT_LE(table.held_batches(), bound);
    }
    table.Close();
    return most_held;
  });
}

TEST(StreamedTable, AQueryReadsEveryRowPushedWhileItRuns) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  StreamedTable table(NumberedSchema(), /*capacity=*/2, /*scan_threads=*/2);
  duck::ChunkScan scan(table);
  auto produced = Produce(table, 2 + 2);
  auto result = db.conn.Query(
      "SELECT count(*), count(DISTINCT n), sum(n), min(n), max(n), "
      "count(*) FILTER (WHERE label = 'row number ' || n || ' of the "
      "stream') FROM " +
      scan.relation());
  const std::size_t most_held = produced.get();
  ASSERT_TRUE(result) << result.error().message;
  const int64_t rows = kBatches * kBatchRows;
  EXPECT_EQ(result->GetInt64(0, 0).value_or(-1), rows);
  EXPECT_EQ(result->GetInt64(1, 0).value_or(-1), rows);
  EXPECT_EQ(result->GetInt64(2, 0).value_or(-1), rows * (rows - 1) / 2);
  EXPECT_EQ(result->GetInt64(3, 0).value_or(-1), 0);
  EXPECT_EQ(result->GetInt64(4, 0).value_or(-1), rows - 1);
  EXPECT_EQ(result->GetInt64(5, 0).value_or(-1), rows) << "labels must read back unchanged";
  EXPECT_GE(most_held, 1u);
  EXPECT_EQ(table.held_batches(), 0u) << "every batch is freed once read";
  EXPECT_EQ(table.rows(), rows);
}

TEST(StreamedTable, AParquetCopyWritesTheWholeStreamAndFreesItAsItGoes) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  ASSERT_TRUE(db.conn.Execute("SET preserve_insertion_order = false"));
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                    ("streamed_table_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  StreamedTable table(NumberedSchema(), /*capacity=*/1, /*scan_threads=*/4);
  duck::ChunkScan scan(table);
  auto produced = Produce(table, 1 + 4);
  // Small row groups and files: the writer flushes many times while batches keep arriving.
  auto copied = db.conn.Execute("COPY (SELECT * FROM " + scan.relation() + ") TO " +
                                duck::QuoteLiteral(dir.string()) +
                                " (FORMAT parquet, ROW_GROUP_SIZE 10000, FILE_SIZE_BYTES 200000)");
  produced.get();
  ASSERT_TRUE(copied) << copied.error().message;
  auto result = db.conn.Query(
      "SELECT count(*), count(DISTINCT n), count(*) FILTER (WHERE label = 'row number ' || n || "
      "' of the stream'), count(DISTINCT filename) FROM read_parquet(" +
      duck::QuoteLiteral((dir / "*.parquet").string()) + ", filename = true)");
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->GetInt64(0, 0).value_or(-1), kBatches * kBatchRows);
  EXPECT_EQ(result->GetInt64(1, 0).value_or(-1), kBatches * kBatchRows);
  EXPECT_EQ(result->GetInt64(2, 0).value_or(-1), kBatches * kBatchRows);
  EXPECT_GT(result->GetInt64(3, 0).value_or(-1), 1) << "one COPY rolled over several files";
  EXPECT_EQ(table.held_batches(), 0u);
  std::filesystem::remove_all(dir);
}

TEST(StreamedTable, ABadValueFailsTheQueryAndCancelReleasesTheProducer) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  StreamedTable table(NumberedSchema(), /*capacity=*/1, /*scan_threads=*/2);
  duck::ChunkScan scan(table);
  auto producer = std::async(std::launch::async, [&table] {
    for (int64_t b = 0; b < kBatches; ++b) {
      normalize::TableBatch batch = Numbered(b * kBatchRows, kBatchRows);
      if (b == 5) {
        auto& labels = std::get<normalize::StringValues>(batch.columns[1]);
        normalize::StringValues broken;
        for (std::size_t i = 0; i < batch.num_rows; ++i) {
          broken.push_back(i == 7 ? std::string_view("bad \xff byte") : *labels[i]);
        }
        labels = std::move(broken);
      }
      if (!table.Push(std::move(batch))) return b;
    }
    table.Close();
    return kBatches;
  });
  auto result = db.conn.Query("SELECT count(*) FROM " + scan.relation());
  table.Cancel();  // what the reading side does once its query ended
  ASSERT_EQ(producer.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "the producer must not wait for a reader that is gone";
  EXPECT_LT(producer.get(), kBatches) << "pushes after the failure are refused";
  ASSERT_FALSE(result) << "an invalid value must fail the query, not become a NULL";
  EXPECT_NE(result.error().message.find("column label, row 8"), std::string::npos)
      << result.error().message;
}

TEST(StreamedTable, ClosedWithoutBatchesReadsNoRows) {
  Db db;
  ASSERT_TRUE(duck::RegisterChunkScan(db.conn));
  StreamedTable table(NumberedSchema(), 2, 2);
  duck::ChunkScan scan(table);
  table.Close();
  auto result = db.conn.Query("SELECT count(*) FROM " + scan.relation());
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->GetInt64(0, 0).value_or(-1), 0);
  EXPECT_FALSE(table.Push(Numbered(0, 1))) << "a push after Close is refused";
}

TEST(StreamedTable, AGrownSchemaIsRefusedNotTruncated) {
  StreamedTable table(NumberedSchema(), 2, 1);
  normalize::TableBatch wider = Numbered(0, 3);
  wider.schema = NumberedSchema(1);
  wider.columns.push_back(normalize::Int64Values{1, 2, 3});
  auto pushed = table.Push(std::move(wider));
  ASSERT_FALSE(pushed);
  EXPECT_NE(pushed.error().message.find("table numbered gained columns"), std::string::npos)
      << pushed.error().message;
  EXPECT_EQ(table.rows(), 0);
}

TEST(StreamedTable, CancelReleasesAProducerWaitingForAReader) {
  StreamedTable table(NumberedSchema(), /*capacity=*/1, 1);
  ASSERT_TRUE(table.Push(Numbered(0, 10)));
  // Nobody reads: the second push waits until the (failed) reader cancels.
  auto second = std::async(std::launch::async, [&table] { return table.Push(Numbered(10, 10)); });
  EXPECT_EQ(second.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  table.Cancel();
  auto pushed = second.get();
  ASSERT_FALSE(pushed);
  EXPECT_NE(pushed.error().message.find("ended before its input did"), std::string::npos);
}

}  // namespace
}  // namespace databox::load
