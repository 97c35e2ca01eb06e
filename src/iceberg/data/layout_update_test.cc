// Partition evolution: the updates and requirements a LayoutUpdate commits, field ids kept for a
// field an earlier spec had, and files of both specs read back after an append under the new one.
#include "iceberg/commit/layout_update.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/data/data_files.h"
#include "iceberg/data/scan_sql.h"
#include "iceberg/data/test_util.h"

namespace databox::iceberg {
namespace {

PartitionSpec SpecOf(std::vector<PartitionField> fields) {
  PartitionSpec spec;
  spec.fields = std::move(fields);
  return spec;
}

PartitionField ByName() { return PartitionField{2, 0, "name", Transform::Identity()}; }
PartitionField IdBucket() {
  return PartitionField{1, 0, "id_bucket", *Transform::Parse("bucket[4]")};
}

class LayoutUpdateTest : public InMemoryCatalogDuckFixture {
 protected:
  void SetUp() override {
    InMemoryCatalogDuckFixture::SetUp();
    CreateBirds("raw", "birds");
  }

  Table Load() {
    auto table = Table::Load(*catalog_, io_, table_);
    EXPECT_TRUE(table) << table.error().ToString();
    return std::move(*table);
  }

  void Append(const std::string& select) {
    Table table = Load();
    auto files = WriteDataFiles(*conn_, *io_, table.metadata(), select);
    ASSERT_TRUE(files) << files.error().ToString();
    auto op = table.NewAppend();
    op->AddFiles(std::move(*files));
    auto committed = op->Commit(*catalog_);
    ASSERT_TRUE(committed) << committed.error().ToString();
  }

  void Evolve(PartitionSpec spec, std::optional<SortOrder> order = std::nullopt) {
    LayoutUpdate update(table_, std::move(spec), std::move(order));
    auto committed = CommitChange(*catalog_, *io_, update);
    ASSERT_TRUE(committed) << committed.error().ToString();
  }

  //! Spec id of each live manifest of the current snapshot.
  std::vector<int32_t> ManifestSpecs() {
    Table table = Load();
    auto manifests = ReadSnapshotManifests(*io_, table.metadata().CurrentSnapshot());
    EXPECT_TRUE(manifests) << manifests.error().ToString();
    std::vector<int32_t> out;
    for (const auto& m : manifests ? *manifests : std::vector<ManifestFile>{}) {
      out.push_back(m.partition_spec_id);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string Rows() {
    auto sql = ReadSql(Load());
    EXPECT_TRUE(sql) << sql.error().ToString();
    auto rows =
        conn_->Query("SELECT string_agg(id || ':' || name, ',' ORDER BY id) FROM (" + *sql + ")");
    EXPECT_TRUE(rows) << rows.error().ToString();
    return rows ? *rows->GetString(0, 0) : "";
  }

  TableIdentifier table_{{"raw"}, "birds"};
};

TEST_F(LayoutUpdateTest, PlansAddSpecAndSetDefaultSpecUnderTheSpecRequirements) {
  LoadedTable base{"", Load().metadata()};
  LayoutUpdate update(table_, SpecOf({ByName()}), std::nullopt);
  auto planned = update.Plan(&base);
  ASSERT_TRUE(planned) << planned.error().ToString();
  ASSERT_EQ(planned->updates.size(), 2u);
  EXPECT_EQ(TableUpdateToJson(planned->updates[0])["action"], "add-spec");
  EXPECT_EQ(TableUpdateToJson(planned->updates[0])["spec"]["fields"][0]["field-id"], 1000);
  EXPECT_EQ(TableUpdateToJson(planned->updates[0])["spec"]["spec-id"], 1);  // the next free id
  EXPECT_EQ(TableUpdateToJson(planned->updates[1]),
            nlohmann::json({{"action", "set-default-spec"}, {"spec-id", -1}}));
  auto requirements = DeriveRequirements(&base.metadata, planned->updates);
  std::vector<nlohmann::json> json;
  for (const auto& r : requirements) json.push_back(TableRequirementToJson(r));
  EXPECT_NE(std::find(json.begin(), json.end(),
                      nlohmann::json({{"type", "assert-default-spec-id"}, {"default-spec-id", 0}})),
            json.end());
  EXPECT_NE(std::find(json.begin(), json.end(),
                      nlohmann::json({{"type", "assert-last-assigned-partition-id"},
                                      {"last-assigned-partition-id", 999}})),
            json.end());
}

TEST_F(LayoutUpdateTest, OldFilesKeepTheirSpecAndEveryRowReadsBack) {
  Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'");
  Evolve(SpecOf({ByName()}));
  Table table = Load();
  EXPECT_EQ(table.metadata().default_spec_id, 1);
  EXPECT_EQ(table.metadata().partition_specs.size(), 2u);
  EXPECT_EQ(table.metadata().last_partition_id, 1000);
  Append("SELECT 3 AS id, 'kite' AS name UNION ALL SELECT 4, 'wren'");
  EXPECT_EQ(ManifestSpecs(), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(Rows(), "1:wren,2:owl,3:kite,4:wren");
  auto live = Load().Live();
  ASSERT_TRUE(live) << live.error().ToString();
  EXPECT_EQ(live->data.size(), 3u);  // one unpartitioned file, one per name of the second load
}

TEST_F(LayoutUpdateTest, FieldIdsAreReusedAndAnEarlierSpecComesBackUnderItsId) {
  Evolve(SpecOf({ByName()}));
  Evolve(SpecOf({IdBucket(), ByName()}));
  Table table = Load();
  ASSERT_NE(table.metadata().DefaultSpec(), nullptr);
  const PartitionSpec& two = *table.metadata().DefaultSpec();
  EXPECT_EQ(two.spec_id, 2);
  EXPECT_EQ(two.fields[0].field_id, 1001);
  EXPECT_EQ(two.fields[1].field_id, 1000);  // identity(name) keeps the id spec 1 gave it
  Evolve(SpecOf({ByName()}));
  EXPECT_EQ(Load().metadata().default_spec_id, 1);
  EXPECT_EQ(Load().metadata().partition_specs.size(), 3u);
  Evolve(PartitionSpec::Unpartitioned());
  EXPECT_EQ(Load().metadata().default_spec_id, 0);
}

TEST_F(LayoutUpdateTest, SameLayoutPlansNothingAndASortOrderIsAddedOnce) {
  Evolve(SpecOf({ByName()}));
  LoadedTable base{"", Load().metadata()};
  LayoutUpdate same(table_, SpecOf({ByName()}), SortOrder::Unsorted());
  auto planned = same.Plan(&base);
  ASSERT_TRUE(planned) << planned.error().ToString();
  EXPECT_TRUE(planned->updates.empty());
  SortOrder order;
  order.fields.push_back(
      SortField{1, Transform::Identity(), SortDirection::kDesc, NullOrder::kNullsLast});
  LayoutUpdate sorted(table_, SpecOf({ByName()}), order);
  planned = sorted.Plan(&base);
  ASSERT_TRUE(planned) << planned.error().ToString();
  ASSERT_EQ(planned->updates.size(), 2u);
  EXPECT_EQ(TableUpdateAction(planned->updates[0]), std::string("add-sort-order"));
  auto requirements = DeriveRequirements(&base.metadata, planned->updates);
  EXPECT_EQ(
      TableRequirementToJson(requirements.back()),
      nlohmann::json({{"type", "assert-default-sort-order-id"}, {"default-sort-order-id", 0}}));
  Evolve(SpecOf({ByName()}), order);
  EXPECT_EQ(Load().metadata().default_sort_order_id, 1);
}

}  // namespace
}  // namespace databox::iceberg
