#include "load/staging.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "duck/database.h"
#include "normalize/normalizer.h"

namespace databox::load {
namespace {

using nlohmann::ordered_json;

//! An in-memory DuckDB database with a staging area in schema "stage".
struct StagingDb {
  std::optional<duck::Database> db;
  std::optional<duck::Connection> conn;
  std::optional<StagingArea> staging;

  ::testing::AssertionResult Open() {
    auto opened = duck::Database::Open("");
    if (!opened) return ::testing::AssertionFailure() << opened.error().message;
    db.emplace(std::move(*opened));
    auto connected = duck::Connection::Open(*db);
    if (!connected) return ::testing::AssertionFailure() << connected.error().message;
    conn.emplace(std::move(*connected));
    auto made = StagingArea::Make(&*conn, "stage");
    if (!made) return ::testing::AssertionFailure() << made.error().message;
    staging.emplace(std::move(*made));
    return ::testing::AssertionSuccess();
  }
};

TEST(Staging, NormalizedRecordsLandInTypedTablesAcrossGrowingSchemas) {
  StagingDb stage;
  ASSERT_TRUE(stage.Open());
  auto& conn = stage.conn;
  auto& staging = stage.staging;

  normalize::ResourceHints hints;
  hints.resource = "events";
  hints.table_name = "events";
  hints.write_disposition = normalize::WriteDisposition::kMerge;
  hints.primary_key = {"id"};
  auto normalizer = normalize::Normalizer::Make(hints, "1700000000.000001");
  ASSERT_TRUE(normalizer) << normalizer.error().message;

  auto n = std::move(*normalizer);
  ASSERT_TRUE(n->Add(ordered_json::parse(
      R"({"id": "a", "mag": 1.5, "when": "2026-02-08T10:00:00Z", "tags": ["x", "y"]})")));
  for (auto& batch : n->Flush()) ASSERT_TRUE(staging->Append(batch)) << batch.schema.name;
  // The second batch brings a new column; the first rows read it as null.
  ASSERT_TRUE(n->Add(ordered_json::parse(R"({"id": "b", "mag": 2, "depth": 10.25})")));
  for (auto& batch : n->Flush()) ASSERT_TRUE(staging->Append(batch)) << batch.schema.name;

  ASSERT_EQ(staging->tables().size(), 2u);
  EXPECT_EQ(staging->tables().at("events").rows, 2);
  EXPECT_EQ(staging->tables().at("events__tags").rows, 2);

  auto rows = conn->Query(
      "SELECT id, mag, depth, typeof(\"when\"), CAST(\"when\" AT TIME ZONE 'UTC' AS VARCHAR) "
      "FROM stage.events ORDER BY id");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->row_count(), 2u);
  EXPECT_EQ(rows->GetString(0, 0), "a");
  EXPECT_DOUBLE_EQ(*rows->GetDouble(1, 0), 1.5);
  EXPECT_TRUE(rows->IsNull(2, 0));
  EXPECT_DOUBLE_EQ(*rows->GetDouble(2, 1), 10.25);
  EXPECT_EQ(rows->GetString(3, 0), "TIMESTAMP WITH TIME ZONE");
  EXPECT_EQ(rows->GetString(4, 0), "2026-02-08 10:00:00");

  auto schema = IcebergSchemaFor(staging->tables().at("events").schema);
  ASSERT_TRUE(schema);
  const auto* id = schema->FindFieldByName("id");
  ASSERT_NE(id, nullptr);
  EXPECT_TRUE(id->required);
  EXPECT_EQ(schema->identifier_field_ids(), std::vector<int32_t>{id->id});
  EXPECT_EQ(schema->FindFieldByName("when")->type.ToString(), "timestamptz");
  EXPECT_EQ(schema->FindFieldByName("mag")->type.ToString(), "double");
}

// Whole batches go into DuckDB as data chunks of 2,048 rows; every dlt type, nulls at chunk
// edges and a schema that grows between batches must land as the row-wise path put them.
TEST(Staging, EveryTypeAcrossChunkBoundaries) {
  StagingDb stage;
  ASSERT_TRUE(stage.Open());
  auto& conn = stage.conn;
  auto& staging = stage.staging;

  normalize::ResourceHints hints;
  hints.resource = "typed";
  hints.table_name = "typed";
  auto hint = [&](const char* name, normalize::DataType type) {
    normalize::ColumnHint h;
    h.name = name;
    h.data_type = type;
    hints.columns.push_back(h);
  };
  hint("day", normalize::DataType::kDate);
  hint("at", normalize::DataType::kTime);
  hint("amount", normalize::DataType::kDecimal);
  hint("big", normalize::DataType::kWei);
  hint("bytes", normalize::DataType::kBinary);
  hint("doc", normalize::DataType::kJson);
  auto normalizer = normalize::Normalizer::Make(hints, "1700000000.000001");
  ASSERT_TRUE(normalizer) << normalizer.error().message;
  auto& n = *normalizer;

  constexpr int kRows = 5000;  // three chunks: 2,048 + 2,048 + 904
  int64_t expected_sum = 0, expected_flags = 0, expected_true = 0, expected_s = 0;
  for (int i = 0; i < kRows; ++i) {
    ordered_json record = {{"i", i}};
    record["flag"] = i % 7 == 0 ? ordered_json(nullptr) : ordered_json(i % 3 == 0);
    char day[16];
    std::snprintf(day, sizeof day, "2024-01-%02d", i % 28 + 1);
    record["day"] = day;
    record["at"] = "12:34:56.5";
    record["amount"] = "123.456789";
    record["big"] = "123456789012345678901234567";
    record["bytes"] = "AAEC";  // base64 of 00 01 02
    record["doc"] = {{"k", i}};
    record["s"] = i % 5 == 0 ? ordered_json(nullptr) : ordered_json("v" + std::to_string(i));
    if (i == kRows - 1) record["late"] = 1.5;  // a column only the last batch has
    ASSERT_TRUE(n->Add(record));
    expected_sum += i;
    expected_flags += i % 7 != 0;
    expected_true += i % 7 != 0 && i % 3 == 0;
    expected_s += i % 5 != 0;
    if (i == 2999) {
      for (auto& batch : n->Flush()) ASSERT_TRUE(staging->Append(batch)) << batch.schema.name;
    }
  }
  for (auto& batch : n->Flush()) ASSERT_TRUE(staging->Append(batch)) << batch.schema.name;

  auto totals = conn->Query(
      "SELECT count(*), sum(i), count(flag), sum(flag::INT), count(s), count(late), "
      "count(DISTINCT day), min(\"at\")::VARCHAR, min(amount)::VARCHAR, min(big)::VARCHAR, "
      "hex(min(bytes)), typeof(min(amount)), typeof(min(big)) FROM stage.typed");
  ASSERT_TRUE(totals) << totals.error().message;
  EXPECT_EQ(*totals->GetInt64(0, 0), kRows);
  EXPECT_EQ(*totals->GetInt64(1, 0), expected_sum);
  EXPECT_EQ(*totals->GetInt64(2, 0), expected_flags);
  EXPECT_EQ(*totals->GetInt64(3, 0), expected_true);
  EXPECT_EQ(*totals->GetInt64(4, 0), expected_s);
  EXPECT_EQ(*totals->GetInt64(5, 0), 1);
  EXPECT_EQ(*totals->GetInt64(6, 0), 28);
  EXPECT_EQ(*totals->GetString(7, 0), "12:34:56.5");
  EXPECT_EQ(*totals->GetString(8, 0), "123.456789000");
  EXPECT_EQ(*totals->GetString(9, 0), "123456789012345678901234567");
  EXPECT_EQ(*totals->GetString(10, 0), "000102");
  EXPECT_EQ(*totals->GetString(11, 0), "DECIMAL(38,9)");
  EXPECT_EQ(*totals->GetString(12, 0), "DECIMAL(38,0)");

  // Rows at and around the chunk edges (2,047/2,048) and the batch edge (2,999/3,000).
  for (int i : {0, 2047, 2048, 2999, 3000, 4096, kRows - 1}) {
    auto row = conn->Query("SELECT day::VARCHAR, doc, s, flag FROM stage.typed WHERE i = " +
                           std::to_string(i));
    ASSERT_TRUE(row) << row.error().message;
    ASSERT_EQ(row->row_count(), 1u) << i;
    char day[16];
    std::snprintf(day, sizeof day, "2024-01-%02d", i % 28 + 1);
    EXPECT_EQ(*row->GetString(0, 0), day) << i;
    EXPECT_EQ(*row->GetString(1, 0), "{\"k\":" + std::to_string(i) + "}") << i;
    EXPECT_EQ(row->IsNull(2, 0), i % 5 == 0) << i;
    if (i % 5 != 0) {
      EXPECT_EQ(*row->GetString(2, 0), "v" + std::to_string(i)) << i;
    }
    EXPECT_EQ(row->IsNull(3, 0), i % 7 == 0) << i;
    if (i % 7 != 0) {
      EXPECT_EQ(*row->GetBool(3, 0), i % 3 == 0) << i;
    }
  }
}

}  // namespace
}  // namespace databox::load
