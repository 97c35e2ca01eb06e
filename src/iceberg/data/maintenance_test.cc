// Maintenance on a SqlCatalog + local warehouse in a temp folder: tables written with our
// writer, stray files planted beside them with back-dated modification times, expiry checked
// by pyiceberg reading every remaining snapshot.
#include "iceberg/commit/maintenance.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "common/test_paths.h"
#include "duck/test_support.h"
#include "fileio/location.h"
#include "iceberg/data/data_files.h"
#include "iceberg/produce/snapshot_producer.h"
#include "iceberg/table.h"
#include "iceberg/test_util.h"

namespace databox::iceberg {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int64_t kDayMs = 24 * 3600 * 1000;

//! Sets a file's modification time to `days` days before now.
void BackDate(const fs::path& path, int days) {
  struct timespec times[2];
  ::clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= static_cast<time_t>(days) * 24 * 3600;
  times[1] = times[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

OrphanOptions Options(std::chrono::milliseconds min_age, bool remove) {
  OrphanOptions options;
  options.min_age = min_age;
  options.remove = remove;
  return options;
}

ExpireOptions Keep(int retain_last, std::optional<int64_t> keep_newer_than_ms = std::nullopt) {
  return ExpireOptions{.retain_last = retain_last, .keep_newer_than_ms = keep_newer_than_ms};
}

class MaintenanceTest : public InMemoryCatalogFixture {
 protected:
  void SetUp() override {
    InMemoryCatalogFixture::SetUp();
    duck_.emplace(duck::testing::OpenMemoryDb());
    location_ = CreateBirds("raw", "birds").metadata.location;
    ASSERT_FALSE(location_.empty());
  }

  Table Load() { return Load(table_); }
  Table Load(const TableIdentifier& id) {
    auto table = Table::Load(*catalog_, io_, id);
    EXPECT_TRUE(table) << table.error().ToString();
    return std::move(*table);
  }

  //! Commits the rows of `select` (append, or replacing everything); returns the files written.
  std::vector<std::string> Commit(const std::string& select, bool replace_all = false) {
    return CommitTo(table_, select, replace_all);
  }
  std::vector<std::string> CommitTo(const TableIdentifier& id, const std::string& select,
                                    bool replace_all = false) {
    Table table = Load(id);
    auto files = WriteDataFiles(duck_->conn, *io_, table.metadata(), select);
    EXPECT_TRUE(files) << files.error().ToString();
    auto op = replace_all ? table.NewReplaceAll() : table.NewAppend();
    std::vector<std::string> paths;
    for (const auto& f : *files) paths.push_back(f.file_path);
    op->AddFiles(std::move(*files));
    auto committed = op->Commit(*catalog_);
    EXPECT_TRUE(committed) << committed.error().ToString();
    return paths;
  }

  //! The local path of a location in the warehouse.
  static fs::path PathOf(const std::string& location) {
    return fs::path(fileio::LocalPathOf(location).value());
  }

  //! Writes a stray file under the table folder; returns its location.
  std::string Plant(const std::string& relative, const std::string& bytes) {
    const std::string location = fileio::JoinLocation(location_, relative);
    fs::create_directories(PathOf(location).parent_path());
    std::ofstream(PathOf(location)) << bytes;
    return location;
  }

  //! Every file under the table folder, back-dated by `days` days.
  void BackDateAll(int days) {
    for (const auto& entry : fs::recursive_directory_iterator(PathOf(location_))) {
      if (entry.is_regular_file()) BackDate(entry.path(), days);
    }
  }

  std::set<std::string> OrphanLocations(const OrphanReport& report) {
    std::set<std::string> out;
    for (const auto& o : report.orphans) out.insert(o.location);
    return out;
  }

  //! pyiceberg's view of the table (testdata/pyiceberg_snapshots.py).
  json PyicebergSnapshots() {
    auto loaded = catalog_->LoadTable(table_);
    EXPECT_TRUE(loaded) << loaded.error().ToString();
    if (!loaded) return json();
    return test_util::RunForJsonLine(
        test_paths::VenvDir() + "/bin/python " + test_paths::SourceDir() +
        "/src/iceberg/testdata/pyiceberg_snapshots.py '" + loaded->metadata_location + "'");
  }

  TableIdentifier table_{{"raw"}, "birds"};
  std::shared_ptr<fileio::FileIO> io_ = std::make_shared<fileio::LocalFileIO>();
  std::optional<duck::testing::MemoryDb> duck_;
  std::string location_;
};

TEST_F(MaintenanceTest, ListsOnlyUnreferencedFilesAndRemovesOnlyOldOnes) {
  const auto first = Commit("SELECT 1 AS id, 'wren' AS name");
  Commit("SELECT 2 AS id, 'owl' AS name");
  // Everything committed so far is old; referenced files must survive any age.
  BackDateAll(10);
  const std::string old_data = Plant("data/stray-old.parquet", "not parquet");
  const std::string old_meta = Plant("metadata/stray-old.avro", "abc");
  const std::string young = Plant("data/nested/stray-young.parquet", "young");
  const std::string outside = Plant("elsewhere/stray.bin", "outside data/ and metadata/");
  // What a writer killed before publishing leaves (LocalFileIO's temporary name).
  const std::string old_temp = Plant("metadata/.00009-x.metadata.json.databox-tmp-AbCdEf", "{}");
  BackDate(PathOf(old_data), 4);
  BackDate(PathOf(old_meta), 4);
  BackDate(PathOf(old_temp), 4);
  BackDate(PathOf(outside), 4);

  auto dry = FindOrphanFiles(*catalog_, *io_, table_);
  ASSERT_TRUE(dry) << dry.error().ToString();
  EXPECT_EQ(OrphanLocations(*dry), (std::set<std::string>{old_data, old_meta, old_temp, young}));
  EXPECT_TRUE(dry->missing.empty());
  EXPECT_EQ(dry->metadata_location, Load().metadata_location());
  for (const auto& o : dry->orphans) {
    ASSERT_TRUE(o.age_ms.has_value()) << o.location;
    const bool is_young = o.location == young;
    EXPECT_EQ(o.old_enough, !is_young) << o.location;
    EXPECT_FALSE(o.removed);
    if (is_young) {
      EXPECT_LT(*o.age_ms, kDayMs);
      EXPECT_EQ(o.size, 5u);
    } else {
      EXPECT_GE(*o.age_ms, 4 * kDayMs - 60000);
      EXPECT_LT(*o.age_ms, 4 * kDayMs + 60000);
    }
  }
  for (const auto& loc : {old_data, old_meta, old_temp, young}) {
    EXPECT_TRUE(fs::exists(PathOf(loc)));
  }

  // A 5-day gate keeps the 4-day-old orphans too.
  auto gated = FindOrphanFiles(*catalog_, *io_, table_, Options(std::chrono::hours(5 * 24), true));
  ASSERT_TRUE(gated) << gated.error().ToString();
  for (const auto& o : gated->orphans) EXPECT_FALSE(o.removed) << o.location;
  for (const auto& loc : {old_data, old_meta, young}) EXPECT_TRUE(fs::exists(PathOf(loc)));

  auto removed = FindOrphanFiles(*catalog_, *io_, table_, Options(kDefaultOrphanMinAge, true));
  ASSERT_TRUE(removed) << removed.error().ToString();
  EXPECT_FALSE(fs::exists(PathOf(old_data)));
  EXPECT_FALSE(fs::exists(PathOf(old_meta)));
  EXPECT_FALSE(fs::exists(PathOf(old_temp)));
  EXPECT_TRUE(fs::exists(PathOf(young)));
  EXPECT_TRUE(fs::exists(PathOf(outside)));
  EXPECT_TRUE(fs::exists(PathOf(first.front())));
  json seen = PyicebergSnapshots();
  ASSERT_TRUE(seen.is_object());
  EXPECT_EQ(seen["snapshots"][std::to_string(seen["current"].get<int64_t>())], json({1, 2}));
}

TEST_F(MaintenanceTest, AnotherTablesFilesInTheSameFolderAreNeverOrphans) {
  // A second catalog over the same warehouse (here: a second table) put "raw.twin" at this
  // table's location: its metadata and data files sit in this table's folders, unreferenced
  // by this table. Removing them would destroy the twin's live data.
  Commit("SELECT 1 AS id, 'wren' AS name");
  const TableIdentifier twin{{"raw"}, "twin"};
  auto created = catalog_->CreateTable(twin, BirdSchema(), PartitionSpec::Unpartitioned(),
                                       SortOrder::Unsorted(), {}, location_);
  ASSERT_TRUE(created) << created.error().ToString();
  const auto twin_files = CommitTo(twin, "SELECT 2 AS id, 'robin' AS name");
  const std::string twin_metadata = catalog_->LoadTable(twin)->metadata_location;
  const std::string stray = Plant("data/stray.parquet", "nobody's");
  BackDateAll(10);

  auto report = FindOrphanFiles(*catalog_, *io_, table_);
  ASSERT_TRUE(report) << report.error().ToString();
  EXPECT_EQ(report->foreign_metadata.size(), 2u);  // the twin's create and its append
  EXPECT_GE(report->foreign_files, 5u);            // 2 metadata, manifest list, manifest, data file
  EXPECT_EQ(OrphanLocations(*report), std::set<std::string>{stray});

  auto removal = FindOrphanFiles(*catalog_, *io_, table_, Options(kDefaultOrphanMinAge, true));
  ASSERT_TRUE(removal) << removal.error().ToString();
  EXPECT_FALSE(fs::exists(PathOf(stray)));
  EXPECT_TRUE(fs::exists(PathOf(twin_metadata)));
  for (const auto& file : twin_files) EXPECT_TRUE(fs::exists(PathOf(file))) << file;
  auto twin_report = FindOrphanFiles(*catalog_, *io_, twin);
  ASSERT_TRUE(twin_report) << twin_report.error().ToString();
  EXPECT_TRUE(twin_report->missing.empty());
}

TEST_F(MaintenanceTest, RemovalIsRefusedWhenAReferencedFileIsMissing) {
  const auto files = Commit("SELECT 1 AS id, 'wren' AS name");
  const std::string stray = Plant("data/stray.parquet", "x");
  BackDateAll(10);
  fs::remove(PathOf(files.front()));
  auto report = FindOrphanFiles(*catalog_, *io_, table_);
  ASSERT_TRUE(report) << report.error().ToString();
  EXPECT_EQ(report->missing, std::vector<std::string>{CanonicalLocation(files.front())});
  auto removal = FindOrphanFiles(*catalog_, *io_, table_, Options(kDefaultOrphanMinAge, true));
  ASSERT_FALSE(removal);
  EXPECT_EQ(removal.error().kind, ErrorKind::kData);
  EXPECT_NE(removal.error().message.find("refusing"), std::string::npos);
  EXPECT_TRUE(fs::exists(PathOf(stray)));
}

TEST_F(MaintenanceTest, ExpiryKeepsTheNewestAndOrphansWhatOnlyExpiredSnapshotsHeld) {
  const auto a = Commit("SELECT 1 AS id, 'wren' AS name");
  const auto b = Commit("SELECT 2 AS id, 'owl' AS name");
  Commit("SELECT 7 AS id, 'kite' AS name", /*replace_all=*/true);
  Commit("SELECT 8 AS id, 'tern' AS name");
  const TableMetadata before = Load().metadata();
  const auto history = Load().History();  // newest first
  ASSERT_EQ(history.size(), 4u);

  // What the two oldest snapshots reference and the two newest do not, computed from the
  // manifest lists before anything changes: both first data files, both old manifest lists
  // and the manifests only those lists name.
  std::set<std::string> expected{a.front(), b.front(), history[3].manifest_list,
                                 history[2].manifest_list};
  std::set<std::string> kept_manifests;
  std::vector<std::vector<ManifestFile>> manifests;
  for (const auto& snapshot : history) {
    auto listed = ReadSnapshotManifests(*io_, &snapshot);
    ASSERT_TRUE(listed) << listed.error().ToString();
    manifests.push_back(std::move(*listed));
  }
  for (int i : {0, 1}) {
    for (const auto& m : manifests[i]) kept_manifests.insert(m.manifest_path);
  }
  for (int i : {2, 3}) {
    for (const auto& m : manifests[i]) {
      if (!kept_manifests.contains(m.manifest_path)) expected.insert(m.manifest_path);
    }
  }

  auto nothing_yet = FindOrphanFiles(*catalog_, *io_, table_);
  ASSERT_TRUE(nothing_yet) << nothing_yet.error().ToString();
  EXPECT_TRUE(nothing_yet->orphans.empty());

  // A dry run of the expiry shows the same orphans without committing.
  const ExpireOptions keep_two = Keep(2);
  const auto planned = SnapshotsToExpire(before, keep_two);
  EXPECT_EQ(planned,
            (std::vector<int64_t>{std::min(history[2].snapshot_id, history[3].snapshot_id),
                                  std::max(history[2].snapshot_id, history[3].snapshot_id)}));
  OrphanOptions as_if_expired;
  as_if_expired.without_snapshots = planned;
  auto preview = FindOrphanFiles(*catalog_, *io_, table_, as_if_expired);
  ASSERT_TRUE(preview) << preview.error().ToString();
  EXPECT_EQ(OrphanLocations(*preview), expected);
  EXPECT_EQ(Load().metadata_location(), catalog_->LoadTable(table_)->metadata_location);
  EXPECT_EQ(Load().metadata().snapshots.size(), 4u);

  ExpireSnapshots expire(table_, keep_two);
  auto committed = CommitChange(*catalog_, *io_, expire);
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_EQ(expire.expired(), planned);
  const TableMetadata after = Load().metadata();
  ASSERT_EQ(after.snapshots.size(), 2u);
  EXPECT_EQ(after.current_snapshot_id, history[0].snapshot_id);
  EXPECT_NE(after.SnapshotById(history[1].snapshot_id), nullptr);

  auto orphans = FindOrphanFiles(*catalog_, *io_, table_, Options(std::chrono::hours(0), false));
  ASSERT_TRUE(orphans) << orphans.error().ToString();
  EXPECT_EQ(OrphanLocations(*orphans), expected);
  auto removed = FindOrphanFiles(*catalog_, *io_, table_, Options(std::chrono::hours(0), true));
  ASSERT_TRUE(removed) << removed.error().ToString();
  for (const auto& loc : expected) EXPECT_FALSE(fs::exists(PathOf(loc))) << loc;

  // pyiceberg reads both remaining snapshots from what is left on disk.
  json seen = PyicebergSnapshots();
  ASSERT_TRUE(seen.is_object());
  EXPECT_EQ(seen["current"], history[0].snapshot_id);
  EXPECT_EQ(seen["snapshots"], json({{std::to_string(history[0].snapshot_id), {7, 8}},
                                     {std::to_string(history[1].snapshot_id), {7}}}));

  // Nothing left to expire: no commit.
  const std::string location = Load().metadata_location();
  ExpireSnapshots again(table_, keep_two);
  ASSERT_TRUE(CommitChange(*catalog_, *io_, again));
  EXPECT_TRUE(again.expired().empty());
  EXPECT_EQ(Load().metadata_location(), location);
}

TEST(SnapshotsToExpire, KeepsRefHeadsBranchMinimumsAndNewerSnapshots) {
  // main: 1 <- 2 <- 3 <- 4 <- 5; tag "audit" at 1; branch "dev" 6 -> 2 keeping 2 snapshots.
  TableMetadata md;
  for (int64_t id = 1; id <= 6; ++id) {
    Snapshot s;
    s.snapshot_id = id;
    s.timestamp_ms = 1000 * id;
    if (id > 1) s.parent_snapshot_id = id == 6 ? 2 : id - 1;
    md.snapshots.push_back(s);
  }
  md.current_snapshot_id = 5;
  md.refs[kMainBranch] = SnapshotRef::Branch(5);
  md.refs["audit"] = SnapshotRef::Tag(1);
  SnapshotRef dev = SnapshotRef::Branch(6);
  dev.min_snapshots_to_keep = 2;
  md.refs["dev"] = dev;
  EXPECT_EQ(SnapshotsToExpire(md, Keep(1)), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(SnapshotsToExpire(md, Keep(2)), (std::vector<int64_t>{3}));
  EXPECT_EQ(SnapshotsToExpire(md, Keep(1, 4000)), (std::vector<int64_t>{3}));
  md.refs.erase("dev");
  md.refs.erase("audit");
  EXPECT_EQ(SnapshotsToExpire(md, Keep(1)), (std::vector<int64_t>{1, 2, 3, 4, 6}));
  EXPECT_EQ(SnapshotsToExpire(md, Keep(0)), (std::vector<int64_t>{1, 2, 3, 4, 6}));
}

}  // namespace
}  // namespace databox::iceberg
