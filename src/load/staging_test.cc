#include "load/staging.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "duck/database.h"
#include "normalize/normalizer.h"

namespace databox::load {
namespace {

using nlohmann::ordered_json;

TEST(Staging, NormalizedRecordsLandInTypedTablesAcrossGrowingSchemas) {
  auto db = duck::Database::Open("");
  ASSERT_TRUE(db) << db.error().message;
  auto conn = duck::Connection::Open(*db);
  ASSERT_TRUE(conn);
  auto staging = StagingArea::Make(&*conn, "stage");
  ASSERT_TRUE(staging) << staging.error().message;

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

}  // namespace
}  // namespace databox::load
