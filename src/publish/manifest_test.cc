#include "publish/manifest.h"

#include <gtest/gtest.h>

namespace databox::publish {
namespace {

TEST(ManifestTest, SchemaHashIsSha256OfTabSeparatedLines) {
  // hashlib.sha256(b"id\tBIGINT\nname\tVARCHAR\n").hexdigest()
  EXPECT_EQ(SchemaSha256({{"id", "BIGINT"}, {"name", "VARCHAR"}}),
            "875313519f278b924523fd0e307af20c66d199b2281611b036e1ac7cc93efdc2");
  EXPECT_NE(SchemaSha256({{"name", "VARCHAR"}, {"id", "BIGINT"}}),
            SchemaSha256({{"id", "BIGINT"}, {"name", "VARCHAR"}}));
}

TEST(ManifestTest, RoundTripsAndKeepsLargeSnapshotIdsExact) {
  Manifest m;
  m.version = 4;
  m.published_at = "2026-12-04T18:00:00.000Z";
  m.databox_version = "0.1.0";
  Relation r;
  r.name = "raw_x.t";
  r.location = "versions/000004/tables/raw_x/t/metadata/v1.metadata.json";
  r.schema = {{"id", "BIGINT"}};
  r.schema_sha256 = SchemaSha256(r.schema);
  r.rows = 3;
  r.snapshot_id = 9007199254740993;  // 2^53 + 1: a double cannot hold it
  r.load_ids = {"1.5"};
  r.files = {"data/raw_x/t/a.parquet"};
  m.relations.push_back(r);
  Relation model;
  model.name = "analytics.m";
  model.kind = RelationKind::kDuckDbTable;
  m.relations.push_back(model);
  const std::string text = m.ToJson();
  EXPECT_NE(text.find("\"9007199254740993\""), std::string::npos) << text;
  auto back = Manifest::FromJson(text, "manifest.json");
  ASSERT_TRUE(back.has_value()) << back.error().ToString();
  ASSERT_EQ(back->relations.size(), 2u);
  EXPECT_EQ(back->relations[0].snapshot_id, 9007199254740993);
  EXPECT_EQ(back->relations[0].files, r.files);
  EXPECT_EQ(back->relations[1].kind, RelationKind::kDuckDbTable);
  EXPECT_EQ(back->relations[1].snapshot_id, std::nullopt);
}

TEST(ManifestTest, RefusesFilesOfAnotherFormat) {
  auto other = Pointer::FromJson(R"({"version": 3, "manifest": "x"})", "current.json");
  ASSERT_FALSE(other.has_value());
  EXPECT_NE(other.error().message.find("not written by databox publish"), std::string::npos);
  EXPECT_FALSE(Pointer::FromJson("not json", "current.json").has_value());
  auto future = Pointer::FromJson(
      R"({"format": "databox-publish", "format_version": 2, "version": 1, "manifest": "m",
          "published_at": "t"})",
      "current.json");
  EXPECT_FALSE(future.has_value());
  auto ok = Pointer::FromJson(
      R"({"format": "databox-publish", "format_version": 1, "version": 5,
          "manifest": "versions/000005/manifest.json", "published_at": "t"})",
      "current.json");
  ASSERT_TRUE(ok.has_value()) << ok.error().ToString();
  EXPECT_EQ(ok->version, 5);
}

}  // namespace
}  // namespace databox::publish
