// Recovery from the warehouse alone (warehouse_recovery.h, iceberg/recovery/metadata_recovery.h):
// real commits through SqlCatalog into a temporary warehouse, then the catalog database is lost and
// the table rows are rebuilt from the metadata files and commit markers.
#include "catalog/sql/warehouse_recovery.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "catalog/sql/test_fixture.h"
#include "fileio/location.h"
#include "iceberg/commit/commit_marker.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/metadata/metadata_files.h"
#include "iceberg/metadata/metadata_json.h"

namespace databox::catalog::sql {
namespace {

namespace fs = std::filesystem;

class WarehouseRecoveryTest : public SqlCatalogFixture {
 protected:
  void SetUp() override {
    SqlCatalogFixture::SetUp();
    io_ = std::make_shared<fileio::LocalFileIO>();
  }

  //! Appends one (stand-in) data file to ns.t; returns the new metadata location.
  std::string Append(int n) {
    auto table = catalog_->LoadTable({{"ns"}, "t"});
    EXPECT_TRUE(table.has_value());
    iceberg::DataFile file;
    file.file_path = table->metadata.location + "/data/part-" + std::to_string(n) + ".parquet";
    file.record_count = n;
    file.file_size_in_bytes = 4;
    EXPECT_TRUE(io_->Write(file.file_path, "PAR1").has_value());
    auto append = iceberg::SnapshotOperation::Append({{"ns"}, "t"}, io_);
    append->AddFile(file);
    auto committed = append->Commit(*catalog_);
    EXPECT_TRUE(committed.has_value()) << committed.error().ToString();
    data_files_.push_back(file.file_path);
    return committed ? committed->metadata_location : "";
  }

  //! Creates ns.t and appends three times: metadata versions 0..3.
  void MakeHistory() {
    versions_.push_back(CreateBirds("ns", "t").metadata_location);
    for (int n = 1; n <= 3; ++n) versions_.push_back(Append(n));
  }

  //! A new metadata file after the current one that no catalog swap followed (the state a
  //! commit killed before its swap leaves): complete, valid, and never committed.
  std::string WriteUncommittedNext() {
    auto current = catalog_->LoadTable({{"ns"}, "t"});
    iceberg::TableMetadata next = current->metadata;
    next.metadata_log.push_back({current->metadata_location, next.last_updated_ms});
    next.last_updated_ms += 1000;
    const std::string location = iceberg::NewMetadataLocation(next, current->metadata_location);
    EXPECT_TRUE(io_->WriteNew(location, iceberg::TableMetadataToJsonString(next)).has_value());
    return location;
  }

  //! The catalog database is lost: recovery writes into a fresh one.
  std::unique_ptr<JdbcStore> LostCatalog() {
    catalog_.reset();
    fs::remove(db_path_);
    auto store = JdbcStore::Open(db_path_, "databox", 1000);
    EXPECT_TRUE(store.has_value());
    return store ? std::move(*store) : nullptr;
  }

  WarehouseRecovery Recover(JdbcStore& store, RecoveryOptions options = {}) {
    auto recovered = RecoverFromWarehouse(store, *io_, warehouse_, options);
    EXPECT_TRUE(recovered.has_value()) << recovered.error().ToString();
    EXPECT_EQ(recovered->tables.size(), 1u);
    return std::move(*recovered);
  }

  std::shared_ptr<fileio::LocalFileIO> io_;
  std::vector<std::string> versions_;
  std::vector<std::string> data_files_;
};

TEST_F(WarehouseRecoveryTest, EveryCommitLeavesAMarkerNamingItsMetadataFile) {
  MakeHistory();
  auto markers = iceberg::ReadCommitMarkers(*io_, warehouse_, "databox");
  ASSERT_TRUE(markers.has_value()) << markers.error().ToString();
  EXPECT_EQ(markers->files, 4u);  // the create and three appends
  for (const auto& v : versions_) EXPECT_TRUE(markers->committed.contains(v)) << v;
  EXPECT_TRUE(markers->unreadable.empty());
}

TEST_F(WarehouseRecoveryTest, PruningKeepsOnlyMarkersLaterCommitsDoNotSupersede) {
  MakeHistory();
  auto superseded = [this](const iceberg::TableIdentifier& table,
                           const std::string& location) -> Result<bool> {
    DATABOX_ASSIGN_OR_RETURN(auto loaded, catalog_->LoadTable(table));
    for (const auto& e : loaded.metadata.metadata_log) {
      if (e.metadata_file == location) return true;
    }
    return false;
  };
  auto young =
      iceberg::PruneCommitMarkers(*io_, warehouse_, "databox", std::chrono::hours(1), superseded);
  ASSERT_TRUE(young.has_value()) << young.error().ToString();
  EXPECT_EQ(young->removed, 0u) << "markers younger than the age are kept";
  auto pruned = iceberg::PruneCommitMarkers(*io_, warehouse_, "databox",
                                            std::chrono::milliseconds(0), superseded);
  ASSERT_TRUE(pruned.has_value()) << pruned.error().ToString();
  EXPECT_EQ(pruned->removed, 3u);
  EXPECT_EQ(pruned->kept, 1u);
  EXPECT_EQ(iceberg::ReadCommitMarkers(*io_, warehouse_, "databox")->committed,
            std::set<std::string>{versions_.back()});
  // The metadata-log still confirms the older versions; the newest keeps its marker.
  auto store = LostCatalog();
  WarehouseRecovery r = Recover(*store);
  EXPECT_EQ(r.tables[0].chosen, versions_.back());
  EXPECT_EQ(r.tables[0].confirmed_by, "commit marker");
}

TEST_F(WarehouseRecoveryTest, NewestFileConfirmedByItsMarkerIsRegistered) {
  MakeHistory();
  auto store = LostCatalog();
  WarehouseRecovery dry = Recover(*store);
  EXPECT_EQ(dry.tables[0].action, RecoveryAction::kRegister);
  EXPECT_FALSE(dry.tables[0].applied);
  EXPECT_EQ(dry.tables[0].chosen, versions_.back());
  EXPECT_EQ(dry.tables[0].confirmed_by, "commit marker");
  EXPECT_EQ(dry.metadata_files, 4u);
  EXPECT_EQ(store->MetadataLocation({{"ns"}, "t"}).value(), std::nullopt) << "a dry run writes";

  WarehouseRecovery applied = Recover(*store, {.apply = true});
  EXPECT_TRUE(applied.tables[0].applied);
  EXPECT_EQ(store->MetadataLocation({{"ns"}, "t"}).value(), versions_.back());
  EXPECT_TRUE(store->NamespaceExists({"ns"}).value());
  // Run again: the catalog already has it.
  EXPECT_EQ(Recover(*store, {.apply = true}).tables[0].action, RecoveryAction::kUpToDate);
}

TEST_F(WarehouseRecoveryTest, WithoutMarkersTheMetadataLogConfirmsAllButTheNewest) {
  MakeHistory();
  fs::remove_all(dir_ / "warehouse" / "_databox");
  auto store = LostCatalog();
  WarehouseRecovery r = Recover(*store);
  EXPECT_EQ(r.tables[0].chosen, versions_[2]);
  EXPECT_EQ(r.tables[0].confirmed_by, "metadata-log");
  ASSERT_EQ(r.tables[0].refused.size(), 1u);
  EXPECT_EQ(r.tables[0].refused[0].location, versions_[3]);
  EXPECT_TRUE(r.tables[0].refused[0].unconfirmed);
  EXPECT_NE(r.tables[0].refused[0].reason.find("unconfirmed"), std::string::npos);

  WarehouseRecovery opted = Recover(*store, {.include_unconfirmed = true});
  EXPECT_EQ(opted.tables[0].chosen, versions_[3]);
  EXPECT_EQ(opted.tables[0].confirmed_by, "unconfirmed (opted in)");
}

TEST_F(WarehouseRecoveryTest, AFileNoSwapFollowedIsNotChosen) {
  MakeHistory();
  const std::string orphan = WriteUncommittedNext();
  auto store = LostCatalog();
  WarehouseRecovery r = Recover(*store, {.apply = true});
  EXPECT_EQ(r.tables[0].chosen, versions_.back());
  ASSERT_EQ(r.tables[0].refused.size(), 1u);
  EXPECT_EQ(r.tables[0].refused[0].location, orphan);
  EXPECT_TRUE(r.tables[0].refused[0].unconfirmed);
  EXPECT_EQ(store->MetadataLocation({{"ns"}, "t"}).value(), versions_.back());
}

TEST_F(WarehouseRecoveryTest, AMissingDataFileFallsBackToTheVersionBeforeIt) {
  MakeHistory();
  fs::remove(fileio::LocalPathOf(data_files_.back()).value());
  auto store = LostCatalog();
  WarehouseRecovery r = Recover(*store);
  EXPECT_EQ(r.tables[0].chosen, versions_[2]);
  ASSERT_EQ(r.tables[0].refused.size(), 1u);
  EXPECT_EQ(r.tables[0].refused[0].location, versions_[3]);
  EXPECT_FALSE(r.tables[0].refused[0].unconfirmed);
  EXPECT_NE(r.tables[0].refused[0].reason.find("data file " + data_files_.back() + " is missing"),
            std::string::npos)
      << r.tables[0].refused[0].reason;
}

TEST_F(WarehouseRecoveryTest, AMissingManifestListIsRefused) {
  MakeHistory();
  auto current = catalog_->LoadTable({{"ns"}, "t"});
  fs::remove(fileio::LocalPathOf(current->metadata.CurrentSnapshot()->manifest_list).value());
  auto store = LostCatalog();
  WarehouseRecovery r = Recover(*store);
  EXPECT_EQ(r.tables[0].chosen, versions_[2]);
  ASSERT_EQ(r.tables[0].refused.size(), 1u);
  EXPECT_NE(r.tables[0].refused[0].reason.find("manifest list"), std::string::npos);
}

TEST_F(WarehouseRecoveryTest, AHalfWrittenMetadataFileIsReportedAndSkipped) {
  MakeHistory();
  const std::string text = io_->Read(versions_.back()).value();
  const std::string torn =
      dir_.string() + "/warehouse/databox/ns/t/metadata/00004-torn.metadata.json";
  ASSERT_TRUE(io_->Write("file://" + torn, text.substr(0, text.size() / 2)).has_value());
  auto store = LostCatalog();
  WarehouseRecovery r = Recover(*store);
  EXPECT_EQ(r.tables[0].chosen, versions_.back());
  ASSERT_EQ(r.tables[0].refused.size(), 1u);
  EXPECT_EQ(r.tables[0].refused[0].location, "file://" + torn);
  EXPECT_NE(r.tables[0].refused[0].reason.find("unreadable"), std::string::npos);
}

TEST_F(WarehouseRecoveryTest, WithEveryDataFileGoneOnlyTheEmptyFirstVersionRemains) {
  MakeHistory();
  for (const auto& f : data_files_) fs::remove(fileio::LocalPathOf(f).value());
  auto store = LostCatalog();
  WarehouseRecovery r = Recover(*store, {.apply = true});
  // Version 0 (the empty table) needs no data file: it is what remains.
  EXPECT_EQ(r.tables[0].chosen, versions_[0]);
  EXPECT_EQ(r.tables[0].refused.size(), 3u);
}

TEST_F(WarehouseRecoveryTest, AnOlderCatalogEntryIsKeptUnlessRolledForward) {
  MakeHistory();
  auto store = LostCatalog();
  ASSERT_TRUE(store->CreateNamespace({"ns"}, {}).has_value());
  ASSERT_TRUE(store->InsertTable({{"ns"}, "t"}, versions_[1]).has_value());
  WarehouseRecovery kept = Recover(*store, {.apply = true});
  EXPECT_EQ(kept.tables[0].action, RecoveryAction::kKept);
  EXPECT_EQ(kept.tables[0].catalog_had, versions_[1]);
  EXPECT_EQ(store->MetadataLocation({{"ns"}, "t"}).value(), versions_[1]);

  WarehouseRecovery rolled = Recover(*store, {.apply = true, .roll_forward = true});
  EXPECT_EQ(rolled.tables[0].action, RecoveryAction::kRollForward);
  EXPECT_TRUE(rolled.tables[0].applied);
  EXPECT_EQ(store->MetadataLocation({{"ns"}, "t"}).value(), versions_.back());
}

TEST_F(WarehouseRecoveryTest, AForeignCatalogEntryIsNeverReplaced) {
  MakeHistory();
  auto store = LostCatalog();
  ASSERT_TRUE(store->CreateNamespace({"ns"}, {}).has_value());
  const std::string elsewhere = warehouse_ + "/elsewhere/metadata/00000-x.metadata.json";
  ASSERT_TRUE(store->InsertTable({{"ns"}, "t"}, elsewhere).has_value());
  WarehouseRecovery r = Recover(*store, {.apply = true, .roll_forward = true});
  EXPECT_EQ(r.tables[0].action, RecoveryAction::kKept);
  EXPECT_EQ(store->MetadataLocation({{"ns"}, "t"}).value(), elsewhere);
}

}  // namespace
}  // namespace databox::catalog::sql
