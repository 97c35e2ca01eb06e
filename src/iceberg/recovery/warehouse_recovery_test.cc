// Recovery into any Catalog (warehouse_recovery.h, catalog_recovery_target.h): tables created
// through one InMemoryCatalog in a temporary warehouse are registered into a second, empty
// one (the lost catalog's replacement) through Catalog::RegisterTable.
#include "iceberg/recovery/warehouse_recovery.h"

#include <gtest/gtest.h>

#include "iceberg/recovery/catalog_recovery_target.h"
#include "iceberg/test_util.h"

namespace databox::iceberg {
namespace {

constexpr std::string_view kUuid = "33d8aad1-b8d7-49e9-a482-5a7427a2e406";

class CatalogRecoveryTest : public InMemoryCatalogFixture {
 protected:
  void SetUp() override {
    InMemoryCatalogFixture::SetUp();
    io_ = std::make_shared<fileio::LocalFileIO>();
    // The replacement's own new tables go elsewhere: only the lost catalog's are found.
    fresh_ = std::make_unique<InMemoryCatalog>("fresh", "file://" + (dir_ / "other").native(), io_);
    ASSERT_TRUE(catalog_->CreateNamespace({"raw", "usgs"}, {}).has_value());
    // Nessie's layout: <namespace>/<table>_<uuid>.
    auto created = catalog_->CreateTable({{"raw", "usgs"}, "sites"}, BirdSchema(),
                                         PartitionSpec::Unpartitioned(), SortOrder::Unsorted(), {},
                                         warehouse_ + "/raw/usgs/sites_" + std::string(kUuid));
    ASSERT_TRUE(created.has_value()) << created.error().ToString();
    sites_ = created->metadata_location;
    birds_ = CreateBirds("birds", "all").metadata_location;
  }

  std::vector<TableFolder> Folders(bool uuid_suffixed) {
    auto folders = FindTableFolders(*io_, warehouse_, {.uuid_suffixed_folders = uuid_suffixed});
    EXPECT_TRUE(folders.has_value()) << folders.error().ToString();
    return folders ? *folders : std::vector<TableFolder>{};
  }

  WarehouseRecovery Recover(RecoveryOptions options) {
    CatalogRecoveryTarget target(*fresh_);
    auto recovered = RecoverTables(target, *io_, Folders(true), {}, options);
    EXPECT_TRUE(recovered.has_value()) << recovered.error().ToString();
    return recovered ? *recovered : WarehouseRecovery{};
  }

  std::shared_ptr<fileio::FileIO> io_;
  std::unique_ptr<InMemoryCatalog> fresh_;
  std::string sites_, birds_;
};

TEST_F(CatalogRecoveryTest, FoldersNameTablesWithOrWithoutTheUuidSuffix) {
  auto plain = Folders(false);
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_EQ(plain[0].table.ToString(), "birds.all");
  EXPECT_EQ(plain[1].table.ToString(), "raw.usgs.sites_" + std::string(kUuid));
  auto stripped = Folders(true);
  ASSERT_EQ(stripped.size(), 2u);
  EXPECT_EQ(stripped[1].table.ToString(), "raw.usgs.sites");
  EXPECT_EQ(stripped[1].metadata_files, std::vector<std::string>{sites_});
}

TEST_F(CatalogRecoveryTest, NewestFileIsUnconfirmedWithoutMarkers) {
  WarehouseRecovery r = Recover({.apply = true});
  ASSERT_EQ(r.tables.size(), 2u);
  for (const auto& t : r.tables) {
    EXPECT_EQ(t.action, RecoveryAction::kNotRecovered) << t.table.ToString();
    ASSERT_EQ(t.refused.size(), 1u);
    EXPECT_TRUE(t.refused[0].unconfirmed);
  }
  EXPECT_FALSE(*fresh_->NamespaceExists({"raw"}));
}

TEST_F(CatalogRecoveryTest, RegistersThroughTheCatalogCreatingNamespaces) {
  WarehouseRecovery dry = Recover({.include_unconfirmed = true});
  ASSERT_EQ(dry.tables.size(), 2u);
  EXPECT_EQ(dry.tables[1].action, RecoveryAction::kRegister);
  EXPECT_FALSE(dry.tables[1].applied);
  EXPECT_FALSE(*fresh_->NamespaceExists({"raw"}));

  WarehouseRecovery applied = Recover({.apply = true, .include_unconfirmed = true});
  ASSERT_EQ(applied.tables.size(), 2u);
  EXPECT_TRUE(applied.tables[0].applied && applied.tables[1].applied);
  EXPECT_EQ(fresh_->LoadTable({{"raw", "usgs"}, "sites"})->metadata_location, sites_);
  EXPECT_EQ(fresh_->LoadTable({{"birds"}, "all"})->metadata_location, birds_);
  EXPECT_TRUE(*fresh_->NamespaceExists({"raw"}));

  WarehouseRecovery again = Recover({.apply = true, .include_unconfirmed = true});
  EXPECT_EQ(again.tables[1].action, RecoveryAction::kUpToDate);
}

TEST_F(CatalogRecoveryTest, RollForwardKeepsATableNotKnownToDescend) {
  ASSERT_TRUE(fresh_->CreateNamespace({"birds"}, {}).has_value());
  // The fresh catalog holds a file the chosen one does not descend from: kept.
  auto other = fresh_->CreateTable({{"birds"}, "all"}, BirdSchema(), PartitionSpec::Unpartitioned(),
                                   SortOrder::Unsorted(), {}, std::nullopt);
  ASSERT_TRUE(other.has_value());
  WarehouseRecovery r = Recover({.apply = true, .include_unconfirmed = true, .roll_forward = true});
  ASSERT_EQ(r.tables.size(), 2u);
  EXPECT_EQ(r.tables[0].action, RecoveryAction::kKept);
  EXPECT_FALSE(r.tables[0].applied);
  EXPECT_EQ(fresh_->LoadTable({{"birds"}, "all"})->metadata_location, other->metadata_location);
}

TEST_F(CatalogRecoveryTest, RollForwardDropsAndRegistersTheNewerFile) {
  // The lost catalog committed once more after the file the replacement holds (an old backup).
  auto newer = catalog_->CommitTable({.identifier = {{"birds"}, "all"},
                                      .requirements = {},
                                      .updates = {SetProperties{{{"x", "1"}}}}});
  ASSERT_TRUE(newer.has_value()) << newer.error().ToString();
  ASSERT_TRUE(fresh_->CreateNamespace({"birds"}, {}).has_value());
  ASSERT_TRUE(fresh_->RegisterTable({{"birds"}, "all"}, birds_).has_value());
  WarehouseRecovery dry =
      Recover({.apply = false, .include_unconfirmed = true, .roll_forward = true});
  EXPECT_EQ(dry.tables[0].action, RecoveryAction::kRollForward);
  EXPECT_EQ(fresh_->LoadTable({{"birds"}, "all"})->metadata_location, birds_);
  WarehouseRecovery r = Recover({.apply = true, .include_unconfirmed = true, .roll_forward = true});
  ASSERT_EQ(r.tables.size(), 2u);
  EXPECT_EQ(r.tables[0].action, RecoveryAction::kRollForward);
  EXPECT_TRUE(r.tables[0].applied);
  EXPECT_EQ(fresh_->LoadTable({{"birds"}, "all"})->metadata_location, newer->metadata_location);
  EXPECT_EQ(fresh_->LoadTable({{"birds"}, "all"})->metadata.properties.at("x"), "1");
  // Moving from a file the catalog no longer holds is refused and changes nothing.
  CatalogRecoveryTarget target(*fresh_);
  auto stale = target.MoveForward({{"birds"}, "all"}, birds_, newer->metadata_location);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kConflict);
  EXPECT_EQ(fresh_->LoadTable({{"birds"}, "all"})->metadata_location, newer->metadata_location);
}

}  // namespace
}  // namespace databox::iceberg
