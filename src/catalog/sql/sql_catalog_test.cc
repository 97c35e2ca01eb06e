#include "catalog/sql/sql_catalog.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <functional>

#include "catalog/sql/test_fixture.h"
#include "iceberg/metadata/metadata_files.h"

namespace databox::catalog::sql {
namespace {

using testing::HasSubstr;
using testing::MatchesRegex;

//! Local files, plus a hook that runs once before the first WriteNew whose location contains
//! `trigger`: a way to let a rival commit land between our staging and our swap.
class HookedFileIO final : public fileio::FileIO {
 public:
  HookedFileIO(std::string trigger, std::function<void()> hook)
      : trigger_(std::move(trigger)), hook_(std::move(hook)) {}
  Result<std::string> Read(std::string_view l) override { return local_.Read(l); }
  Result<std::string> ReadRange(std::string_view l, uint64_t o, uint64_t n) override {
    return local_.ReadRange(l, o, n);
  }
  Result<uint64_t> Size(std::string_view l) override { return local_.Size(l); }
  Result<bool> Exists(std::string_view l) override { return local_.Exists(l); }
  Status WriteNew(std::string_view l, std::string_view b) override {
    if (hook_ && l.find(trigger_) != std::string_view::npos) std::exchange(hook_, nullptr)();
    return local_.WriteNew(l, b);
  }
  Status Write(std::string_view l, std::string_view b) override { return local_.Write(l, b); }
  Status UploadFile(std::string_view p, std::string_view l) override {
    return local_.UploadFile(p, l);
  }
  Status Delete(std::string_view l) override { return local_.Delete(l); }
  Result<std::vector<fileio::FileInfo>> List(std::string_view p) override { return local_.List(p); }

 private:
  fileio::LocalFileIO local_;
  std::string trigger_;
  std::function<void()> hook_;
};

iceberg::TableCommit SetProperty(const iceberg::LoadedTable& base,
                                 const iceberg::TableIdentifier& id, std::string key) {
  return {.identifier = id,
          .requirements = {iceberg::AssertTableUuid{base.metadata.table_uuid}},
          .updates = {iceberg::SetProperties{{{std::move(key), "1"}}}}};
}

class SqlCatalogTest : public SqlCatalogFixture {};

TEST_F(SqlCatalogTest, CatalogsSharingAWarehouseGetTheirOwnTableFolders) {
  auto other =
      SqlCatalog::Open({.name = "other", .uri = "sqlite:///" + db_path_, .warehouse = warehouse_},
                       std::make_shared<fileio::LocalFileIO>());
  ASSERT_TRUE(other.has_value()) << other.error().ToString();
  const iceberg::TableIdentifier table{{"raw_ebird"}, "observations"};
  EXPECT_EQ(catalog_->DefaultTableLocation(table), warehouse_ + "/databox/raw_ebird/observations");
  EXPECT_EQ((*other)->DefaultTableLocation(table), warehouse_ + "/other/raw_ebird/observations");
  // Only a catalog's own folder is its alone; the layout before catalog folders is shared.
  EXPECT_TRUE(catalog_->TableFoldersAreItsOwn(warehouse_ + "/databox/raw_ebird/observations"));
  EXPECT_FALSE((*other)->TableFoldersAreItsOwn(warehouse_ + "/databox/raw_ebird/observations"));
  EXPECT_FALSE(catalog_->TableFoldersAreItsOwn(warehouse_ + "/raw_ebird/observations"));
  EXPECT_FALSE(catalog_->TableFoldersAreItsOwn(warehouse_ + "/databox_2/raw_ebird/t"));
}

TEST_F(SqlCatalogTest, CreateLoadAndList) {
  iceberg::LoadedTable created = CreateBirds("raw_ebird", "observations");
  EXPECT_THAT(created.metadata_location,
              MatchesRegex(warehouse_ +
                           "/databox/raw_ebird/observations/metadata/00000-.*\\.metadata\\.json"));
  EXPECT_EQ(created.metadata.location, warehouse_ + "/databox/raw_ebird/observations");

  auto loaded = Connect()->LoadTable({{"raw_ebird"}, "observations"});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, created.metadata_location);
  EXPECT_EQ(loaded->metadata.table_uuid, created.metadata.table_uuid);
  ASSERT_NE(loaded->metadata.CurrentSchema(), nullptr);
  EXPECT_EQ(loaded->metadata.CurrentSchema()->fields().size(), 2u);

  EXPECT_EQ(catalog_->ListTables({"raw_ebird"}).value(),
            (std::vector<iceberg::TableIdentifier>{{{"raw_ebird"}, "observations"}}));
  EXPECT_TRUE(catalog_->TableExists({{"raw_ebird"}, "observations"}).value());
  EXPECT_FALSE(catalog_->TableExists({{"raw_ebird"}, "nope"}).value());
  EXPECT_EQ(catalog_->LoadTable({{"raw_ebird"}, "nope"}).error().kind, ErrorKind::kNotFound);

  auto again = catalog_->CreateTable({{"raw_ebird"}, "observations"}, BirdSchema(), {}, {}, {},
                                     std::nullopt);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  auto no_ns =
      catalog_->CreateTable({{"raw_missing"}, "t"}, BirdSchema(), {}, {}, {}, std::nullopt);
  EXPECT_EQ(no_ns.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(catalog_->ListTables({"raw_missing"}).error().kind, ErrorKind::kNotFound);
}

TEST_F(SqlCatalogTest, CommitWritesNextVersionAndLogsPrevious) {
  iceberg::TableIdentifier id{{"ns"}, "t"};
  iceberg::LoadedTable v0 = CreateBirds("ns", "t");
  auto v1 = catalog_->CommitTable(SetProperty(v0, id, "k"));
  ASSERT_TRUE(v1.has_value()) << v1.error().ToString();
  EXPECT_THAT(v1->metadata_location, MatchesRegex(".*/ns/t/metadata/00001-.*\\.metadata\\.json"));
  EXPECT_EQ(v1->metadata.properties.at("k"), "1");
  ASSERT_EQ(v1->metadata.metadata_log.size(), 1u);
  EXPECT_EQ(v1->metadata.metadata_log[0].metadata_file, v0.metadata_location);
  EXPECT_EQ(catalog_->LoadTable(id)->metadata_location, v1->metadata_location);

  // A failed requirement is a conflict and changes nothing.
  iceberg::TableCommit stale = SetProperty(v0, id, "k2");
  stale.requirements = {iceberg::AssertTableUuid{"00000000-0000-0000-0000-000000000000"}};
  auto rejected = catalog_->CommitTable(stale);
  ASSERT_FALSE(rejected.has_value());
  EXPECT_EQ(rejected.error().kind, ErrorKind::kConflict);
  EXPECT_THAT(rejected.error().message, HasSubstr("ns.t"));
  EXPECT_EQ(catalog_->LoadTable(id)->metadata_location, v1->metadata_location);

  // Committing to a missing table without assert-create is not found.
  EXPECT_EQ(catalog_->CommitTable(SetProperty(v0, {{"ns"}, "ghost"}, "k")).error().kind,
            ErrorKind::kNotFound);
}

TEST_F(SqlCatalogTest, AnUnreadableMetadataLogLimitIsRefusedAndChangesNothing) {
  iceberg::TableIdentifier id{{"ns"}, "t"};
  iceberg::LoadedTable v0 = CreateBirds("ns", "t");
  iceberg::TableCommit commit{
      .identifier = id,
      .requirements = {iceberg::AssertTableUuid{v0.metadata.table_uuid}},
      .updates = {iceberg::SetProperties{{{"write.metadata.previous-versions-max", "many"}}}}};
  auto refused = catalog_->CommitTable(commit);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(refused.error().message,
              HasSubstr("write.metadata.previous-versions-max = 'many': not a whole number"));
  EXPECT_THAT(refused.error().message, HasSubstr("ns.t"));
  EXPECT_EQ(catalog_->LoadTable(id)->metadata_location, v0.metadata_location);
}

TEST_F(SqlCatalogTest, CachedMetadataIsWhatTheFileHolds) {
  iceberg::TableIdentifier id{{"ns"}, "t"};
  iceberg::LoadedTable v0 = CreateBirds("ns", "t");
  iceberg::Snapshot snapshot;
  snapshot.snapshot_id = 42;
  snapshot.sequence_number = 1;
  snapshot.timestamp_ms = 1700000000123;
  snapshot.manifest_list = warehouse_ + "/ns/t/metadata/snap-42.avro";
  snapshot.summary = {{"operation", "append"}, {"added-records", "3"}};
  snapshot.schema_id = 0;
  auto v1 = catalog_->CommitTable(
      {.identifier = id,
       .requirements = {iceberg::AssertTableUuid{v0.metadata.table_uuid}},
       .updates = {iceberg::AddSnapshot{snapshot},
                   iceberg::SetSnapshotRef{"main", iceberg::SnapshotRef::Branch(42)},
                   iceberg::SetProperties{{{"k", "v"}}}}});
  ASSERT_TRUE(v1.has_value()) << v1.error().ToString();
  // This catalog answers from what it wrote; a new one (empty cache) parses the file.
  auto cached = catalog_->LoadTable(id);
  auto parsed = Connect()->LoadTable(id);
  ASSERT_TRUE(cached.has_value() && parsed.has_value());
  EXPECT_EQ(cached->metadata_location, parsed->metadata_location);
  EXPECT_TRUE(cached->metadata == parsed->metadata);
  EXPECT_TRUE(v1->metadata == parsed->metadata);
  ASSERT_NE(parsed->metadata.CurrentSnapshot(), nullptr);
  EXPECT_EQ(parsed->metadata.CurrentSnapshot()->summary.at("added-records"), "3");

  // Another process's commit is seen through the cache.
  auto v2 = Connect()->CommitTable(SetProperty(*v1, id, "other"));
  ASSERT_TRUE(v2.has_value()) << v2.error().ToString();
  auto reloaded = catalog_->LoadTable(id);
  ASSERT_TRUE(reloaded.has_value());
  EXPECT_EQ(reloaded->metadata_location, v2->metadata_location);
  EXPECT_EQ(reloaded->metadata.properties.count("other"), 1u);
}

TEST_F(SqlCatalogTest, CommitWithAssertCreateCreatesTableAtDefaultLocation) {
  ASSERT_TRUE(catalog_->CreateNamespace({"ns"}, {}).has_value());
  // The create carries no set-location: the catalog places the table itself.
  auto base = iceberg::NewTableMetadata(BirdSchema(), {}, {}, "file:///unused", {});
  ASSERT_TRUE(base.has_value()) << base.error().ToString();
  std::vector<iceberg::TableUpdate> updates = iceberg::CreateTableUpdates(*base);
  std::erase_if(updates, [](const iceberg::TableUpdate& u) {
    return std::holds_alternative<iceberg::SetLocation>(u);
  });
  iceberg::TableCommit create{.identifier = {{"ns"}, "staged"},
                              .requirements = {iceberg::AssertCreate{}},
                              .updates = updates};
  auto created = catalog_->CommitTable(create);
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  EXPECT_EQ(created->metadata.location, warehouse_ + "/databox/ns/staged");
  EXPECT_THAT(created->metadata_location, MatchesRegex(".*/ns/staged/metadata/00000-.*"));
  // The same create again fails its assert-create.
  EXPECT_EQ(catalog_->CommitTable(create).error().kind, ErrorKind::kConflict);
}

TEST_F(SqlCatalogTest, PrepareCreateTablePlacesTheTableUnderTheWarehouseAndCreatesNothing) {
  ASSERT_TRUE(catalog_->CreateNamespace({"raw_birds"}, {}).has_value());
  auto prepared =
      catalog_->PrepareCreateTable({{"raw_birds"}, "sightings"}, BirdSchema(), {}, {}, {});
  ASSERT_TRUE(prepared.has_value()) << prepared.error().ToString();
  EXPECT_EQ(prepared->location, warehouse_ + "/databox/raw_birds/sightings");
  EXPECT_FALSE(catalog_->TableExists({{"raw_birds"}, "sightings"}).value());
  EXPECT_FALSE(std::filesystem::exists(dir_ / "warehouse" / "databox" / "raw_birds"));
  // One SQLite transaction swaps every pointer: a transaction may create tables.
  EXPECT_TRUE(catalog_->TransactionsCreateTables());
}

TEST_F(SqlCatalogTest, LosingTheSwapIsAConflictAndLeavesTheWinner) {
  iceberg::TableIdentifier id{{"ns"}, "t"};
  iceberg::LoadedTable v0 = CreateBirds("ns", "t");
  std::unique_ptr<SqlCatalog> rival = Connect();
  std::string rival_location;
  auto io = std::make_shared<HookedFileIO>("/ns/t/metadata/00001-", [&] {
    auto won = rival->CommitTable(SetProperty(v0, id, "rival"));
    ASSERT_TRUE(won.has_value()) << won.error().ToString();
    rival_location = won->metadata_location;
  });
  std::unique_ptr<SqlCatalog> mine = Connect(io);
  auto lost = mine->CommitTable(SetProperty(v0, id, "mine"));
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().kind, ErrorKind::kConflict);
  EXPECT_FALSE(rival_location.empty());
  iceberg::LoadedTable now = catalog_->LoadTable(id).value();
  EXPECT_EQ(now.metadata_location, rival_location);
  EXPECT_EQ(now.metadata.properties.count("mine"), 0u);
  // Our written file is left for maintenance: two version-1 files exist.
  EXPECT_EQ(io->List(warehouse_ + "/databox/ns/t/metadata/00001-").value().size(), 2u);

  // Reloading and retrying succeeds on top of the winner.
  auto retried = mine->CommitTable(SetProperty(now, id, "mine"));
  ASSERT_TRUE(retried.has_value()) << retried.error().ToString();
  EXPECT_EQ(retried->metadata.properties.count("rival"), 1u);
}

TEST_F(SqlCatalogTest, TransactionIsAllOrNothing) {
  iceberg::TableIdentifier a{{"ns"}, "a"}, b{{"ns"}, "b"};
  iceberg::LoadedTable a0 = CreateBirds("ns", "a");
  iceberg::LoadedTable b0 = CreateBirds("ns", "b");
  std::unique_ptr<SqlCatalog> rival = Connect();
  // While our transaction stages b, a rival commits to a: a's swap must fail, and b with it.
  auto io = std::make_shared<HookedFileIO>("/ns/b/metadata/", [&] {
    ASSERT_TRUE(rival->CommitTable(SetProperty(a0, a, "rival")).has_value());
  });
  std::unique_ptr<SqlCatalog> mine = Connect(io);
  std::vector<iceberg::TableCommit> commits = {SetProperty(a0, a, "txn"),
                                               SetProperty(b0, b, "txn")};
  auto failed = mine->CommitTransaction(commits);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().kind, ErrorKind::kConflict);
  EXPECT_EQ(catalog_->LoadTable(b)->metadata_location, b0.metadata_location);
  EXPECT_EQ(catalog_->LoadTable(a)->metadata.properties.count("txn"), 0u);

  auto landed = mine->CommitTransaction(commits);
  ASSERT_TRUE(landed.has_value()) << landed.error().ToString();
  ASSERT_EQ(landed->size(), 2u);
  EXPECT_EQ(catalog_->LoadTable(a)->metadata.properties.count("txn"), 1u);
  EXPECT_EQ(catalog_->LoadTable(b)->metadata_location, (*landed)[1].metadata_location);

  std::vector<iceberg::TableCommit> twice = {SetProperty(a0, a, "x"), SetProperty(a0, a, "y")};
  EXPECT_EQ(mine->CommitTransaction(twice).error().kind, ErrorKind::kConfig);
}

TEST_F(SqlCatalogTest, ConcurrentProcessesAllLandTheirCommits) {
  constexpr int kProcesses = 4;
  constexpr int kCommitsEach = 8;
  constexpr int kMaxAttempts = 200;
  iceberg::TableIdentifier id{{"ns"}, "t"};
  CreateBirds("ns", "t");
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid != 0) {
      children.push_back(pid);
      continue;
    }
    // Child: its own connection; reload and retry on conflict, as a loader does.
    std::unique_ptr<SqlCatalog> catalog = Connect();
    int exit_code = catalog == nullptr ? 3 : 0;
    for (int i = 0; exit_code == 0 && i < kCommitsEach; ++i) {
      bool landed = false;
      for (int attempt = 0; !landed && attempt < kMaxAttempts; ++attempt) {
        auto current = catalog->LoadTable(id);
        if (!current) break;
        auto result = catalog->CommitTable(
            SetProperty(*current, id, "p" + std::to_string(p) + "-" + std::to_string(i)));
        if (result) {
          landed = true;
        } else if (result.error().kind != ErrorKind::kConflict) {
          std::fprintf(stderr, "child %d: %s\n", p, result.error().ToString().c_str());
          break;
        }
      }
      if (!landed) exit_code = 2;
    }
    ::_exit(exit_code);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  iceberg::LoadedTable final_table = catalog_->LoadTable(id).value();
  for (int p = 0; p < kProcesses; ++p) {
    for (int i = 0; i < kCommitsEach; ++i) {
      EXPECT_EQ(
          final_table.metadata.properties.count("p" + std::to_string(p) + "-" + std::to_string(i)),
          1u);
    }
  }
  EXPECT_EQ(final_table.metadata.metadata_log.size(),
            static_cast<size_t>(kProcesses * kCommitsEach));
  EXPECT_EQ(iceberg::MetadataVersion(final_table.metadata_location), kProcesses * kCommitsEach);
}

TEST_F(SqlCatalogTest, DropRenameRegister) {
  iceberg::LoadedTable t0 = CreateBirds("ns", "t");
  ASSERT_TRUE(catalog_->CreateNamespace({"other"}, {{"owner", "me"}}).has_value());
  EXPECT_EQ(catalog_->LoadNamespaceProperties({"other"}).value().at("owner"), "me");
  EXPECT_EQ(catalog_->RenameTable({{"ns"}, "t"}, {{"missing"}, "t"}).error().kind,
            ErrorKind::kNotFound);
  ASSERT_TRUE(catalog_->RenameTable({{"ns"}, "t"}, {{"other"}, "u"}).has_value());
  EXPECT_EQ(catalog_->LoadTable({{"other"}, "u"})->metadata_location, t0.metadata_location);
  ASSERT_TRUE(catalog_->DropTable({{"other"}, "u"}).has_value());
  EXPECT_EQ(catalog_->DropTable({{"other"}, "u"}).error().kind, ErrorKind::kNotFound);

  auto registered = catalog_->RegisterTable({{"ns"}, "back"}, t0.metadata_location);
  ASSERT_TRUE(registered.has_value()) << registered.error().ToString();
  EXPECT_EQ(registered->metadata.table_uuid, t0.metadata.table_uuid);
  EXPECT_EQ(catalog_->RegisterTable({{"ns"}, "back"}, t0.metadata_location).error().kind,
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog_->RegisterTable({{"ns"}, "bad"}, warehouse_ + "/none.json").error().kind,
            ErrorKind::kNotFound);
  EXPECT_EQ(catalog_->DropNamespace({"ns"}).error().kind, ErrorKind::kConflict);
  ASSERT_TRUE(catalog_->DropNamespace({"other"}).has_value());
  EXPECT_EQ(catalog_->ListNamespaces({}).value(), (std::vector<iceberg::Namespace>{{"ns"}}));
}

}  // namespace
}  // namespace databox::catalog::sql
