// Table operations end to end on a SqlCatalog + local FileIO in a temp folder: rows are
// written with DuckDB, committed, and read back through the manifests.
#include "iceberg/commit/table_operations.h"

#include <gtest/gtest.h>

#include <optional>

#include "duck/connection.h"
#include "duck/database.h"
#include "iceberg/data/data_files.h"
#include "iceberg/data/merge.h"
#include "iceberg/data/position_deletes.h"
#include "iceberg/data/scan_sql.h"
#include "iceberg/data/test_util.h"

namespace databox::iceberg {
namespace {

//! Delegates to a real catalog; lets a test run something just before a commit or fake a
//! lost response after it.
class InterposingCatalog final : public Catalog {
 public:
  explicit InterposingCatalog(Catalog& inner) : inner_(inner) {}
  std::function<void()> before_commit;  //!< run (once) before the next commit
  bool lose_next_response = false;      //!< commit, then answer kCommitStateUnknown
  //! When a commit answered with a timeout (kNetwork) is applied, as a slow server finishing it
  //! does: not at all, just before the second table read after it (the caller's check for the
  //! commit does not see it, its next read does), or just before the caller's next commit.
  enum class Landing { kNever, kBeforeSecondRead, kBeforeNextCommit };
  std::optional<Landing> time_out_next_commit;
  std::optional<Error> fail_next_commit;  //!< answer the next commit with this, applying nothing
  //! Apply only the first table of the next transaction, then answer with a timeout: a server
  //! that applies a transaction table after table and stopped (or answered late) in between.
  bool time_out_next_transaction_after_first_table = false;
  int commits = 0;
  int loads = 0;

  std::string_view Name() const override { return inner_.Name(); }
  Status CreateNamespace(const Namespace& ns, const Properties& p) override {
    return inner_.CreateNamespace(ns, p);
  }
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& p) override {
    return inner_.ListNamespaces(p);
  }
  Result<bool> NamespaceExists(const Namespace& ns) override { return inner_.NamespaceExists(ns); }
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override {
    return inner_.LoadNamespaceProperties(ns);
  }
  Status UpdateNamespaceProperties(const Namespace& ns, std::span<const std::string> removals,
                                   const Properties& updates) override {
    return inner_.UpdateNamespaceProperties(ns, removals, updates);
  }
  Status DropNamespace(const Namespace& ns) override { return inner_.DropNamespace(ns); }
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override {
    return inner_.ListTables(ns);
  }
  Result<bool> TableExists(const TableIdentifier& t) override { return inner_.TableExists(t); }
  Result<LoadedTable> LoadTable(const TableIdentifier& t) override {
    ++loads;
    if (in_flight_ && landing_ == Landing::kBeforeSecondRead && loads_until_landing_-- == 0) {
      Land();
    }
    return inner_.LoadTable(t);
  }
  Result<LoadedTable> CreateTable(const TableIdentifier& t, const Schema& s,
                                  const PartitionSpec& spec, const SortOrder& order,
                                  const Properties& p,
                                  std::optional<std::string> location) override {
    return inner_.CreateTable(t, s, spec, order, p, std::move(location));
  }
  Result<LoadedTable> CommitTable(const TableCommit& commit) override {
    ++commits;
    if (before_commit) std::exchange(before_commit, nullptr)();
    if (in_flight_ && landing_ == Landing::kBeforeNextCommit) Land();
    if (time_out_next_commit) {
      landing_ = *std::exchange(time_out_next_commit, std::nullopt);
      if (landing_ != Landing::kNever) in_flight_ = commit;
      loads_until_landing_ = 1;
      return MakeError(ErrorKind::kNetwork, "timed out waiting for the answer (test)");
    }
    if (fail_next_commit) return std::unexpected(*std::exchange(fail_next_commit, std::nullopt));
    auto result = inner_.CommitTable(commit);
    if (result && lose_next_response) {
      lose_next_response = false;
      return MakeError(ErrorKind::kCommitStateUnknown, "response lost (test)");
    }
    return result;
  }
  Result<std::vector<LoadedTable>> CommitTransaction(
      std::span<const TableCommit> commits_) override {
    ++commits;
    if (std::exchange(time_out_next_transaction_after_first_table, false)) {
      EXPECT_TRUE(inner_.CommitTable(commits_.front())) << "the first table did not apply";
      return MakeError(ErrorKind::kNetwork, "timed out waiting for the answer (test)");
    }
    return inner_.CommitTransaction(commits_);
  }
  Status DropTable(const TableIdentifier& t) override { return inner_.DropTable(t); }
  Status RenameTable(const TableIdentifier& a, const TableIdentifier& b) override {
    return inner_.RenameTable(a, b);
  }
  Result<LoadedTable> RegisterTable(const TableIdentifier& t, std::string_view location) override {
    return inner_.RegisterTable(t, location);
  }
  Result<TableMetadata> PrepareCreateTable(const TableIdentifier& t, const Schema& s,
                                           const PartitionSpec& spec, const SortOrder& order,
                                           const Properties& p) override {
    return inner_.PrepareCreateTable(t, s, spec, order, p);
  }
  bool TransactionsCreateTables() const override { return inner_.TransactionsCreateTables(); }

 private:
  void Land() {
    EXPECT_TRUE(inner_.CommitTable(*in_flight_)) << "the late commit did not apply";
    in_flight_.reset();
  }

  Catalog& inner_;
  std::optional<TableCommit> in_flight_;  //!< a timed-out commit the "server" applies later
  Landing landing_ = Landing::kNever;
  int loads_until_landing_ = 0;
};

class TableOperationsTest : public InMemoryCatalogDuckFixture {
 protected:
  void SetUp() override {
    InMemoryCatalogDuckFixture::SetUp();
    ASSERT_TRUE(catalog_->CreateNamespace({"raw"}, {}));
    Schema schema = BirdSchema();
    schema.set_identifier_field_ids({1});
    ASSERT_TRUE(catalog_->CreateTable(table_, schema, PartitionSpec::Unpartitioned(),
                                      SortOrder::Unsorted(), {}, std::nullopt));
  }

  Table Load(Catalog* catalog = nullptr) {
    auto table = Table::Load(catalog ? *catalog : *catalog_, io_, table_);
    EXPECT_TRUE(table) << table.error().ToString();
    return std::move(*table);
  }

  //! Writes `select` as data files of the table's current state.
  std::vector<DataFile> Write(const std::string& select) {
    auto files = WriteDataFiles(*conn_, *io_, Load().metadata(), select);
    EXPECT_TRUE(files) << files.error().ToString();
    return files ? *files : std::vector<DataFile>{};
  }

  //! "id:name" of every row, sorted.
  std::vector<std::string> Rows(std::string_view ref = kMainBranch) {
    auto sql = ReadSql(Load(), ref);
    EXPECT_TRUE(sql) << sql.error().ToString();
    auto rows = conn_->Query("SELECT id || ':' || coalesce(name, 'NULL') FROM (" + *sql +
                             ") ORDER BY id, name");
    EXPECT_TRUE(rows) << rows.error().ToString();
    std::vector<std::string> out;
    for (uint64_t r = 0; rows && r < rows->row_count(); ++r) out.push_back(*rows->GetString(0, r));
    return out;
  }

  Status Append(const std::string& select, Catalog* catalog = nullptr, SnapshotChange change = {}) {
    auto op = Load().NewAppend(std::move(change));
    op->AddFiles(Write(select));
    auto committed = op->Commit(catalog ? *catalog : *catalog_);
    if (!committed) return std::unexpected(committed.error());
    return Ok();
  }

  TableIdentifier table_{{"raw"}, "birds"};
};

TEST_F(TableOperationsTest, AppendsAccumulateWithSummaries) {
  SnapshotChange change;
  change.load_id = "1700000000.5";
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, NULL", nullptr, change));
  ASSERT_TRUE(Append("SELECT 3 AS id, 'owl' AS name"));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:NULL", "3:owl"}));
  Table table = Load();
  auto history = table.History();
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0].summary.at("operation"), "append");
  EXPECT_EQ(history[0].summary.at("added-records"), "1");
  EXPECT_EQ(history[0].summary.at("total-records"), "3");
  EXPECT_EQ(history[0].summary.at("total-data-files"), "2");
  EXPECT_EQ(history[1].summary.at(kLoadIdSummaryKey), "1700000000.5");
  EXPECT_EQ(history[0].parent_snapshot_id, history[1].snapshot_id);
  auto files = table.LiveDataFiles();
  ASSERT_TRUE(files);
  ASSERT_EQ(files->size(), 2u);
  // Stats of the first file: 2 rows, one null name, id bounds 1..2 as 8-byte little endian.
  const DataFile& first = (*files)[0].record_count == 2 ? (*files)[0] : (*files)[1];
  EXPECT_EQ(first.null_value_counts.at(2), 1);
  EXPECT_EQ(first.lower_bounds.at(1), std::string("\x01\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(first.upper_bounds.at(1), std::string("\x02\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(first.upper_bounds.at(2), "wren");
  EXPECT_TRUE(first.file_path.starts_with(table.metadata().location + "/data/"));
}

TEST_F(TableOperationsTest, ReplaceAllRemovesEveryLiveFileInOneSnapshot) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
  ASSERT_TRUE(Append("SELECT 2 AS id, 'owl' AS name"));
  auto op = Load().NewReplaceAll();
  op->AddFiles(Write("SELECT 7 AS id, 'kite' AS name"));
  ASSERT_TRUE(op->Commit(*catalog_));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"7:kite"}));
  const Snapshot head = Load().History().front();
  EXPECT_EQ(head.summary.at("operation"), "overwrite");
  EXPECT_EQ(head.summary.at("deleted-data-files"), "2");
  EXPECT_EQ(head.summary.at("deleted-records"), "2");
  EXPECT_EQ(head.summary.at("total-records"), "1");
}

TEST_F(TableOperationsTest, MergeUpdatesAndInsertsAndLeavesUnrelatedFilesAlone) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'"));
  ASSERT_TRUE(Append("SELECT 10 AS id, 'kite' AS name UNION ALL SELECT 11, 'tern'"));
  auto op =
      PrepareMerge(*conn_, Load(), "SELECT 2 AS id, 'barn owl' AS name UNION ALL SELECT 5, 'crow'");
  ASSERT_TRUE(op) << op.error().ToString();
  ASSERT_TRUE((*op)->Commit(*catalog_));
  EXPECT_EQ(Rows(),
            (std::vector<std::string>{"1:wren", "2:barn owl", "5:crow", "10:kite", "11:tern"}));
  const Snapshot head = Load().History().front();
  EXPECT_EQ(head.summary.at("operation"), "overwrite");
  EXPECT_EQ(head.summary.at("deleted-data-files"), "1");  // the 10/11 file is out of range
  EXPECT_EQ(head.summary.at("total-records"), "5");
}

TEST_F(TableOperationsTest, DeleteWhereRewritesOnlyMatchingFiles) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'"));
  ASSERT_TRUE(Append("SELECT 10 AS id, 'kite' AS name"));
  auto op = PrepareDeleteWhere(*conn_, Load(), "name = 'owl'");
  ASSERT_TRUE(op) << op.error().ToString();
  ASSERT_TRUE((*op)->Commit(*catalog_));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "10:kite"}));
  EXPECT_EQ(Load().History().front().summary.at("deleted-data-files"), "1");
}

TEST_F(TableOperationsTest, ConflictingCommitIsReplannedOnTheNewBase) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
  InterposingCatalog racing(*catalog_);
  racing.before_commit = [&] { ASSERT_TRUE(Append("SELECT 2 AS id, 'owl' AS name")); };
  ASSERT_TRUE(Append("SELECT 3 AS id, 'kite' AS name", &racing));
  EXPECT_EQ(racing.commits, 2);  // the first attempt lost the race
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:owl", "3:kite"}));
  auto history = Load().History();
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(history[0].summary.at("total-records"), "3");
}

TEST_F(TableOperationsTest, TheFirstAttemptStartsFromTheCallersReadAndARetryReadsAgain) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
  const Table fresh = Load();
  InterposingCatalog counting(*catalog_);
  auto op = fresh.NewAppend();
  op->AddFiles(Write("SELECT 2 AS id, 'owl' AS name"));
  op->StartFrom(fresh.loaded());
  ASSERT_TRUE(op->Commit(counting));
  EXPECT_EQ(counting.loads, 0) << "the caller's read was current";
  EXPECT_EQ(counting.commits, 1);

  const Table stale = Load();
  ASSERT_TRUE(Append("SELECT 3 AS id, 'kite' AS name"));  // the table moves on after the read
  op = stale.NewAppend();
  op->AddFiles(Write("SELECT 4 AS id, 'tern' AS name"));
  op->StartFrom(stale.loaded());
  ASSERT_TRUE(op->Commit(counting));
  EXPECT_EQ(counting.commits, 3) << "the stale read lost, the retry won";
  EXPECT_EQ(counting.loads, 1) << "the retry read the table again";
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:owl", "3:kite", "4:tern"}));
}

TEST(CommitRetryPropertiesTest, TablePropertiesOnlyMakeCommitsGentler) {
  const RetryPolicy base;
  auto same = ApplyCommitRetryProperties(base, {}, "ns.t");
  ASSERT_TRUE(same);
  EXPECT_EQ(same->max_attempts, base.max_attempts);
  EXPECT_EQ(same->initial_backoff, base.initial_backoff);
  EXPECT_EQ(same->budget, base.budget);
  auto set = ApplyCommitRetryProperties(base,
                                        {{"commit.retry.num-retries", "2"},
                                         {"commit.retry.min-wait-ms", "100"},
                                         {"commit.retry.max-wait-ms", "60000"},
                                         {"commit.retry.total-timeout-ms", "1500"}},
                                        "ns.t");
  ASSERT_TRUE(set) << set.error().ToString();
  EXPECT_EQ(set->max_attempts, 3);
  EXPECT_EQ(set->initial_backoff, std::chrono::milliseconds(100));
  EXPECT_EQ(set->max_backoff, std::chrono::milliseconds(1500)) << "no wait beyond the budget";
  EXPECT_EQ(set->budget, std::chrono::milliseconds(1500));
  // More retries, shorter waits or a longer budget than asked for are not taken.
  auto insistent = ApplyCommitRetryProperties(base,
                                              {{"commit.retry.num-retries", "9223372036854775807"},
                                               {"commit.retry.min-wait-ms", "0"},
                                               {"commit.retry.total-timeout-ms", "99999999"}},
                                              "ns.t");
  ASSERT_TRUE(insistent);
  EXPECT_EQ(insistent->max_attempts, base.max_attempts);
  EXPECT_EQ(insistent->initial_backoff, base.initial_backoff);
  EXPECT_EQ(insistent->budget, base.budget);
  for (const std::string bad : {"abc", "-1", "5x", ""}) {
    auto refused = ApplyCommitRetryProperties(base, {{"commit.retry.num-retries", bad}}, "ns.t");
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
    EXPECT_NE(refused.error().message.find("table ns.t has commit.retry.num-retries = '" + bad),
              std::string::npos)
        << refused.error().message;
  }
}

TEST_F(TableOperationsTest, CommitRetryPropertiesOfTheTableAreFollowed) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
  auto set = [&](const std::string& value) {
    TableCommit commit{table_, {}, {SetProperties{{{"commit.retry.num-retries", value}}}}};
    ASSERT_TRUE(catalog_->CommitTable(commit));
  };
  set("0");  // no retry: a lost race ends the commit
  InterposingCatalog racing(*catalog_);
  racing.before_commit = [&] { ASSERT_TRUE(Append("SELECT 2 AS id, 'owl' AS name")); };
  auto lost = Append("SELECT 3 AS id, 'kite' AS name", &racing);
  ASSERT_FALSE(lost);
  EXPECT_EQ(lost.error().kind, ErrorKind::kConflict);
  EXPECT_NE(lost.error().message.find("after 1 attempts"), std::string::npos)
      << lost.error().message;
  EXPECT_EQ(racing.commits, 1);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:owl"}));

  set("many");
  auto refused = Append("SELECT 4 AS id, 'tern' AS name");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:owl"}));
}

TEST(WriteOptionsTest, TablePropertiesSetCodecLevelAndFileSize) {
  TableMetadata metadata;
  metadata.location = "file:///w/t";
  auto defaults = WithTableProperties(metadata, {});
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->compression, "zstd");
  EXPECT_EQ(defaults->compression_level, 1);
  EXPECT_EQ(defaults->target_file_size_bytes, 256ull << 20);
  EXPECT_EQ(defaults->row_group_size_bytes, 32ull << 20);

  metadata.properties = {{kCompressionCodecProperty, "snappy"},
                         {kCompressionLevelProperty, "9"},
                         {kTargetFileSizeProperty, "1048576"},
                         {kRowGroupSizeBytesProperty, "134217728"}};
  auto set = WithTableProperties(metadata, {});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->compression, "snappy");
  EXPECT_EQ(set->compression_level, 9);
  EXPECT_EQ(set->target_file_size_bytes, 1048576u);
  EXPECT_EQ(set->row_group_size_bytes, 134217728u);

  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{kCompressionLevelProperty, "fast"},
                                                        {kCompressionLevelProperty, "0"},
                                                        {kCompressionLevelProperty, "23"},
                                                        {kTargetFileSizeProperty, "0"},
                                                        {kTargetFileSizeProperty, "-1"},
                                                        {kTargetFileSizeProperty, "1GB"},
                                                        {kRowGroupSizeBytesProperty, "0"},
                                                        {kRowGroupSizeBytesProperty, "big"}}) {
    metadata.properties = {{key, value}};
    auto refused = WithTableProperties(metadata, {});
    ASSERT_FALSE(refused) << key << " = " << value;
    EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
    EXPECT_NE(refused.error().message.find(key + " = '" + value + "'"), std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("file:///w/t"), std::string::npos);
  }
}

TEST_F(TableOperationsTest, DataFilesAreWrittenAsTheTablePropertiesSay) {
  auto set = [&](Properties properties) {
    TableCommit commit{table_, {}, {SetProperties{std::move(properties)}}};
    ASSERT_TRUE(catalog_->CommitTable(commit));
  };
  // Repetitive text, which zstd shrinks much more at a high level than at level 1.
  const std::string rows =
      "SELECT i AS id, repeat('song sparrow ' || (i % 97)::VARCHAR || ' ', 8) AS name "
      "FROM range(20000) t(i)";
  auto codec_of = [&](const DataFile& file) {
    auto codec = conn_->Query("SELECT DISTINCT compression FROM parquet_metadata('" +
                              file.file_path.substr(std::string("file://").size()) + "')");
    EXPECT_TRUE(codec) << codec.error().message;
    return codec && codec->row_count() == 1 ? codec->GetString(0, 0).value_or("") : "";
  };
  auto one_file = [&] {
    auto files = Write(rows);
    EXPECT_EQ(files.size(), 1u);
    return files.empty() ? DataFile{} : files.front();
  };
  const DataFile by_default = one_file();
  EXPECT_EQ(codec_of(by_default), "ZSTD");
  set({{kCompressionLevelProperty, "19"}});
  const DataFile level_19 = one_file();
  EXPECT_EQ(codec_of(level_19), "ZSTD");
  EXPECT_LT(level_19.file_size_in_bytes, by_default.file_size_in_bytes)
      << "level 19 should compress repetitive text better than the default level 1";
  set({{kCompressionCodecProperty, "snappy"}});  // the level applies to zstd only
  EXPECT_EQ(codec_of(one_file()), "SNAPPY");
  set({{kCompressionCodecProperty, "zip"}});
  auto refused = WriteDataFiles(*conn_, *io_, Load().metadata(), rows);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
  EXPECT_NE(refused.error().message.find("zip"), std::string::npos) << refused.error().message;
}

TEST_F(TableOperationsTest, LostResponseIsReconciledByLoadId) {
  InterposingCatalog lossy(*catalog_);
  lossy.lose_next_response = true;
  SnapshotChange change;
  change.load_id = "42.0";
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name", &lossy, change));
  EXPECT_EQ(lossy.commits, 1);  // found by reconciliation, not committed twice
  EXPECT_EQ(Load().History().size(), 1u);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren"}));
}

TEST_F(TableOperationsTest, ACommitThatLandsAfterItsTimeoutIsFoundNotAddedTwiceAndKeepsItsFiles) {
  // The commit's answer times out; the check right after does not see it yet. The retry must
  // find its own snapshot once it is there (not add it again, which the catalog refuses) and
  // must not delete the files that snapshot references. It lands before the retry's read
  // (nothing is committed again) or between that read and the retry's commit (which then
  // conflicts, and the next attempt finds it).
  using Landing = InterposingCatalog::Landing;
  for (const auto& [landing, commits] :
       {std::pair{Landing::kBeforeSecondRead, 1}, std::pair{Landing::kBeforeNextCommit, 2}}) {
    SCOPED_TRACE(commits);
    InterposingCatalog slow(*catalog_);
    slow.time_out_next_commit = landing;
    SnapshotChange change;
    change.load_id = "43." + std::to_string(commits);
    const std::size_t before = Load().History().size();
    auto op = Load().NewAppend(change);
    auto files = Write("SELECT " + std::to_string(commits) + " AS id, 'wren' AS name");
    op->AddFiles(files);
    auto committed = op->Commit(slow);
    ASSERT_TRUE(committed) << committed.error().ToString();
    EXPECT_EQ(slow.commits, commits);
    EXPECT_EQ(Load().History().size(), before + 1);
    for (const auto& f : files) EXPECT_TRUE(*io_->Exists(f.file_path)) << f.file_path;
  }
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:wren"}));
}

TEST_F(TableOperationsTest,
       AFailureAfterAnAnswerThatTimedOutKeepsTheFilesAndSaysTheOutcomeIsUnknown) {
  InterposingCatalog slow(*catalog_);
  slow.time_out_next_commit = InterposingCatalog::Landing::kNever;
  slow.fail_next_commit = Error{ErrorKind::kData, "refused (test)"};
  auto op = Load().NewAppend();
  auto files = Write("SELECT 1 AS id, 'wren' AS name");
  op->AddFiles(files);
  auto committed = op->Commit(slow);
  ASSERT_FALSE(committed);
  EXPECT_EQ(committed.error().kind, ErrorKind::kCommitStateUnknown) << committed.error().ToString();
  EXPECT_NE(committed.error().message.find("refused (test)"), std::string::npos);
  EXPECT_EQ(slow.commits, 2);
  // The first attempt may still land: the data files it references stay.
  for (const auto& f : files) EXPECT_TRUE(*io_->Exists(f.file_path)) << f.file_path;
}

TEST_F(TableOperationsTest, ATransactionThatLandedForOneTableCommitsOnlyTheOtherAndKeepsTheFiles) {
  // The answer to a two-table transaction timed out after the server had applied the first
  // table only. The retry must commit the second table and leave the first as it landed (adding
  // its snapshot again is refused by the catalog), and no file either snapshot references goes.
  const TableIdentifier kites_id{{"raw"}, "kites"};
  ASSERT_TRUE(catalog_->CreateTable(kites_id, BirdSchema(), PartitionSpec::Unpartitioned(),
                                    SortOrder::Unsorted(), {}, std::nullopt));
  InterposingCatalog slow(*catalog_);
  slow.time_out_next_transaction_after_first_table = true;
  SnapshotChange change;
  change.load_id = "44.0";
  auto birds = Load().NewAppend(change);
  const auto bird_files = Write("SELECT 1 AS id, 'wren' AS name");
  birds->AddFiles(bird_files);
  auto kites_table = Table::Load(*catalog_, io_, kites_id);
  ASSERT_TRUE(kites_table) << kites_table.error().ToString();
  auto kites = kites_table->NewAppend(change);
  auto kite_files =
      WriteDataFiles(*conn_, *io_, kites_table->metadata(), "SELECT 2 AS id, 'kite' AS name");
  ASSERT_TRUE(kite_files) << kite_files.error().ToString();
  kites->AddFiles(*kite_files);

  TableChange* both[] = {birds.get(), kites.get()};
  auto committed = CommitChanges(slow, *io_, both);
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_EQ(slow.commits, 2);  // the transaction, then the second table alone
  EXPECT_EQ(Load().History().size(), 1u);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren"}));
  auto kites_after = Table::Load(*catalog_, io_, kites_id);
  ASSERT_TRUE(kites_after) << kites_after.error().ToString();
  EXPECT_EQ(kites_after->History().size(), 1u);
  for (const auto& f : bird_files) EXPECT_TRUE(*io_->Exists(f.file_path)) << f.file_path;
  for (const auto& f : *kite_files) EXPECT_TRUE(*io_->Exists(f.file_path)) << f.file_path;
}

TEST_F(TableOperationsTest, RejectedCommitCleansUpItsFiles) {
  auto op = Load().NewOverwrite();
  auto files = Write("SELECT 1 AS id, 'wren' AS name");
  op->AddFiles(files);
  op->DeleteFile(table_.name + "/not-a-live-file.parquet");
  auto committed = op->Commit(*catalog_);
  ASSERT_FALSE(committed);
  EXPECT_EQ(committed.error().kind, ErrorKind::kConflict);
  for (const auto& f : files) EXPECT_FALSE(*io_->Exists(f.file_path)) << f.file_path;
}

TEST_F(TableOperationsTest, RefusedCreatingTransactionKeepsTheFilesForCommitsOneByOne) {
  // Like a REST server that cannot create a table inside a transaction.
  catalog_->RefuseCreatesInTransactions();
  ASSERT_TRUE(catalog_->TransactionsCreateTables());  // not known until a server refuses
  const TableIdentifier fresh{{"raw"}, "fresh"};
  auto existing = Load().NewAppend();
  auto existing_files = Write("SELECT 1 AS id, 'wren' AS name");
  existing->AddFiles(existing_files);
  auto prepared = catalog_->PrepareCreateTable(fresh, BirdSchema(), PartitionSpec::Unpartitioned(),
                                               SortOrder::Unsorted(), {});
  ASSERT_TRUE(prepared) << prepared.error().ToString();
  auto fresh_files = WriteDataFiles(*conn_, *io_, *prepared, "SELECT 2 AS id, 'kite' AS name");
  ASSERT_TRUE(fresh_files) << fresh_files.error().ToString();
  auto create = SnapshotOperation::Append(fresh, io_);
  create->CreateIfMissing(CreateTableUpdates(*prepared));
  create->AddFiles(*fresh_files);

  TableChange* both[] = {existing.get(), create.get()};
  auto together = CommitChanges(*catalog_, *io_, both);
  ASSERT_FALSE(together);
  EXPECT_FALSE(catalog_->TransactionsCreateTables());
  EXPECT_EQ(*catalog_->TableExists(fresh), false);
  EXPECT_TRUE(Rows().empty());  // nothing applied
  // The written files stay for the same changes committed another way.
  for (const auto& f : existing_files) EXPECT_TRUE(*io_->Exists(f.file_path)) << f.file_path;
  for (const auto& f : *fresh_files) EXPECT_TRUE(*io_->Exists(f.file_path)) << f.file_path;

  ASSERT_TRUE(CommitChange(*catalog_, *io_, *create));
  ASSERT_TRUE(CommitChange(*catalog_, *io_, *existing));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren"}));
  auto created = Table::Load(*catalog_, io_, fresh);
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_EQ(created->History().size(), 1u);
}

TEST_F(TableOperationsTest, SmallManifestsAreMerged) {
  SnapshotChange change;
  change.merge.min_count_to_merge = 3;
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(Append("SELECT " + std::to_string(i) + " AS id, 'x' AS name", nullptr, change));
  }
  Table table = Load();
  auto manifests = ReadSnapshotManifests(*io_, table.metadata().CurrentSnapshot());
  ASSERT_TRUE(manifests);
  EXPECT_LE(manifests->size(), 3u);
  EXPECT_EQ(Rows().size(), 8u);
  EXPECT_EQ(table.History().front().summary.at("total-data-files"), "8");
}

TEST_F(TableOperationsTest, BranchIsPublishedToMainByFastForward) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
  SnapshotChange audit;
  audit.branch = "audit";
  ASSERT_TRUE(Append("SELECT 2 AS id, 'owl' AS name", nullptr, audit));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren"}));
  EXPECT_EQ(Rows("audit"), (std::vector<std::string>{"1:wren", "2:owl"}));
  FastForward publish(table_, "audit");
  ASSERT_TRUE(CommitChange(*catalog_, *io_, publish));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:owl"}));
}

TEST_F(TableOperationsTest, SchemaEvolutionAddsColumnAndOldFilesReadNull) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
  Schema incoming = BirdSchema();
  incoming.mutable_fields().push_back(
      NestedField{.id = 0, .name = "mass", .required = false, .type = Type::Double(), .doc = {}});
  SchemaUpdate update(table_, incoming);
  ASSERT_TRUE(CommitChange(*catalog_, *io_, update));
  ASSERT_TRUE(Append("SELECT 2 AS id, 'owl' AS name, 1.5 AS mass"));
  Table table = Load();
  ASSERT_NE(table.schema().FindFieldByName("mass"), nullptr);
  EXPECT_EQ(table.schema().FindFieldByName("mass")->id, 3);
  auto rows = conn_->Query("SELECT id, coalesce(CAST(mass AS VARCHAR), 'NULL') FROM (" +
                           *ReadSql(table) + ") ORDER BY id");
  ASSERT_TRUE(rows) << rows.error().ToString();
  EXPECT_EQ(*rows->GetString(1, 0), "NULL");
  EXPECT_EQ(*rows->GetString(1, 1), "1.5");
}

// Merge-on-read: the changed rows' positions go into position delete files; nothing is
// rewritten, and every read leaves the deleted rows out.
class MergeOnReadTest : public TableOperationsTest {
 protected:
  static RowChangeOptions MergeOnRead() {
    RowChangeOptions options;
    options.mode = RowChangeMode::kMergeOnRead;
    return options;
  }
  Status Merge(const std::string& incoming, const RowChangeOptions& options,
               Catalog* catalog = nullptr) {
    auto op = PrepareMerge(*conn_, Load(), incoming, options);
    if (!op) return std::unexpected(op.error());
    auto committed = (*op)->Commit(catalog ? *catalog : *catalog_);
    if (!committed) return std::unexpected(committed.error());
    return Ok();
  }
  LiveFiles Live() {
    auto live = Load().Live();
    EXPECT_TRUE(live) << live.error().ToString();
    return live ? *live : LiveFiles{};
  }
};

TEST_F(MergeOnReadTest, MergeAddsPositionDeletesAndRewritesNothing) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'"));
  ASSERT_TRUE(Append("SELECT 10 AS id, 'kite' AS name UNION ALL SELECT 11, 'tern'"));
  const std::vector<DataFile> before = Live().data;
  ASSERT_EQ(before.size(), 2u);
  ASSERT_TRUE(
      Merge("SELECT 2 AS id, 'barn owl' AS name UNION ALL SELECT 5, 'crow'", MergeOnRead()));
  EXPECT_EQ(Rows(),
            (std::vector<std::string>{"1:wren", "2:barn owl", "5:crow", "10:kite", "11:tern"}));
  const LiveFiles live = Live();
  EXPECT_EQ(live.data.size(), 3u);  // both old files stay, plus the incoming rows
  ASSERT_EQ(live.deletes.size(), 1u);
  EXPECT_EQ(live.deletes[0].content, DataFileContent::kPositionDeletes);
  EXPECT_EQ(live.deletes[0].record_count, 1);
  const std::string two("\x02\0\0\0\0\0\0\0", 8);  // id 2, little-endian long bound
  const std::string owl_file =
      before[0].upper_bounds.at(1) == two ? before[0].file_path : before[1].file_path;
  EXPECT_EQ(ReferencedDataFile(live.deletes[0]), owl_file);
  const auto summary = Load().History().front().summary;
  EXPECT_EQ(summary.at("operation"), "overwrite");
  EXPECT_EQ(summary.at("deleted-data-files"), "0");
  EXPECT_EQ(summary.at("added-position-deletes"), "1");
  EXPECT_EQ(summary.at("total-delete-files"), "1");
  EXPECT_EQ(summary.at("total-position-deletes"), "1");
  EXPECT_EQ(summary.at("total-records"), "6");  // data rows, deleted ones included (spec)

  // The new version of 2 lives in the merge's file: a second merge deletes it there, and the
  // row deleted before is not matched again.
  ASSERT_TRUE(Merge("SELECT 2 AS id, 'eagle owl' AS name UNION ALL SELECT 11, 'sooty tern'",
                    MergeOnRead()));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:eagle owl", "5:crow", "10:kite",
                                              "11:sooty tern"}));
  EXPECT_EQ(Load().History().front().summary.at("added-position-deletes"), "2");
  EXPECT_EQ(Live().deletes.size(), 3u);
}

TEST_F(MergeOnReadTest, CopyOnWriteAfterwardsAppliesAndDropsTheDeletes) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'"));
  ASSERT_TRUE(Merge("SELECT 2 AS id, 'barn owl' AS name", MergeOnRead()));
  ASSERT_EQ(Live().deletes.size(), 1u);
  // Copy-on-write rewrites the file holding 1 (and the stale 2): the old 2 must not come back,
  // and the delete file that pointed only at the rewritten file goes with it.
  ASSERT_TRUE(Merge("SELECT 1 AS id, 'winter wren' AS name", RowChangeOptions{}));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:winter wren", "2:barn owl"}));
  EXPECT_TRUE(Live().deletes.empty());
  const auto summary = Load().History().front().summary;
  EXPECT_EQ(summary.at("removed-position-deletes"), "1");
  EXPECT_EQ(summary.at("total-delete-files"), "0");
}

TEST_F(MergeOnReadTest, DeleteWhereWritesOnlyDeletes) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'"));
  ASSERT_TRUE(Append("SELECT 10 AS id, 'kite' AS name"));
  auto op = PrepareDeleteWhere(*conn_, Load(), "name = 'owl'", MergeOnRead());
  ASSERT_TRUE(op) << op.error().ToString();
  ASSERT_TRUE((*op)->Commit(*catalog_));
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "10:kite"}));
  EXPECT_EQ(Live().data.size(), 2u);
  EXPECT_EQ(Load().History().front().summary.at("operation"), "delete");
  // Deleting what is already deleted finds nothing to do.
  auto again = PrepareDeleteWhere(*conn_, Load(), "name = 'owl'", MergeOnRead());
  ASSERT_TRUE(again) << again.error().ToString();
  ASSERT_TRUE((*again)->Commit(*catalog_));
  EXPECT_EQ(Live().deletes.size(), 1u);
}

TEST_F(MergeOnReadTest, TablePropertyChoosesTheModeAndBadValuesAreRefused) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
  auto set = [&](const std::string& value) {
    auto table = Load();
    TableCommit commit{table_, {}, {SetProperties{{{kMergeModeProperty, value}}}}};
    auto committed = catalog_->CommitTable(commit);
    ASSERT_TRUE(committed) << committed.error().ToString();
  };
  set("merge-on-read");
  ASSERT_TRUE(Merge("SELECT 1 AS id, 'winter wren' AS name", RowChangeOptions{}));
  EXPECT_EQ(Live().deletes.size(), 1u);
  set("merge-on-write");
  auto refused = PrepareMerge(*conn_, Load(), "SELECT 1 AS id, 'x' AS name");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
  EXPECT_NE(refused.error().message.find("merge-on-write"), std::string::npos);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:winter wren"}));
}

TEST_F(MergeOnReadTest, DeleteRewriteCompactsWithoutChangingTheRows) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'"));
  ASSERT_TRUE(Append("SELECT 10 AS id, 'kite' AS name"));
  ASSERT_TRUE(Merge("SELECT 2 AS id, 'barn owl' AS name", MergeOnRead()));
  ASSERT_TRUE(Merge("SELECT 2 AS id, 'eagle owl' AS name", MergeOnRead()));
  const std::vector<std::string> rows = {"1:wren", "2:eagle owl", "10:kite"};
  ASSERT_EQ(Rows(), rows);
  auto summary = DeletedRows(Load());
  ASSERT_TRUE(summary) << summary.error().ToString();
  EXPECT_EQ(summary->data_files.size(), 2u);  // the first file and the first merge's
  EXPECT_EQ(summary->delete_files.size(), 2u);
  EXPECT_EQ(summary->positions, 2);

  auto op = PrepareDeleteRewrite(*conn_, Load());
  ASSERT_TRUE(op) << op.error().ToString();
  ASSERT_NE(*op, nullptr);
  ASSERT_TRUE((*op)->Commit(*catalog_));
  EXPECT_EQ(Rows(), rows);
  const LiveFiles live = Live();
  EXPECT_TRUE(live.deletes.empty());
  EXPECT_EQ(live.data.size(), 3u);  // untouched 10, second merge's file, the rewrite of both
  const auto head = Load().History().front().summary;
  EXPECT_EQ(head.at("operation"), "replace");
  EXPECT_EQ(head.at("deleted-data-files"), "2");
  EXPECT_EQ(head.at("total-records"), "3");

  auto nothing = PrepareDeleteRewrite(*conn_, Load());
  ASSERT_TRUE(nothing) << nothing.error().ToString();
  EXPECT_EQ(*nothing, nullptr);
}

TEST_F(MergeOnReadTest, RewriteOfTheTargetFileInBetweenIsAConflict) {
  ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, 'owl'"));
  auto op = PrepareMerge(*conn_, Load(), "SELECT 2 AS id, 'barn owl' AS name", MergeOnRead());
  ASSERT_TRUE(op) << op.error().ToString();
  // Before it commits, a copy-on-write change rewrites the file its deletes point at.
  InterposingCatalog racing(*catalog_);
  racing.before_commit = [&] {
    ASSERT_TRUE(Merge("SELECT 1 AS id, 'winter wren' AS name", RowChangeOptions{}));
  };
  auto committed = (*op)->Commit(racing);
  ASSERT_FALSE(committed);
  EXPECT_EQ(committed.error().kind, ErrorKind::kConflict);
  EXPECT_NE(committed.error().message.find("no longer live"), std::string::npos);
  EXPECT_EQ(Rows(), (std::vector<std::string>{"1:winter wren", "2:owl"}));
}

TEST_F(MergeOnReadTest, DataAppendedBetweenMergeReadAndCommitIsAConflictInBothModes) {
  for (const RowChangeMode mode : {RowChangeMode::kCopyOnWrite, RowChangeMode::kMergeOnRead}) {
    SCOPED_TRACE(mode == RowChangeMode::kCopyOnWrite ? "copy-on-write" : "merge-on-read");
    ASSERT_TRUE(Append("SELECT 1 AS id, 'wren' AS name"));
    RowChangeOptions options;
    options.mode = mode;
    auto op = PrepareMerge(*conn_, Load(), "SELECT 2 AS id, 'barn owl' AS name", options);
    ASSERT_TRUE(op) << op.error().ToString();
    // Another writer adds key 2 after the merge looked for it: committing would duplicate it.
    InterposingCatalog racing(*catalog_);
    racing.before_commit = [&] { ASSERT_TRUE(Append("SELECT 2 AS id, 'owl' AS name")); };
    auto committed = (*op)->Commit(racing);
    ASSERT_FALSE(committed);
    EXPECT_EQ(committed.error().kind, ErrorKind::kConflict);
    EXPECT_NE(committed.error().message.find("added data files"), std::string::npos)
        << committed.error().message;
    EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:owl"}));
    // Prepared again on the new state, the merge updates the appended row.
    ASSERT_TRUE(Merge("SELECT 2 AS id, 'barn owl' AS name", options));
    EXPECT_EQ(Rows(), (std::vector<std::string>{"1:wren", "2:barn owl"}));
    ASSERT_TRUE(Merge("SELECT 1 AS id, NULL AS name UNION ALL SELECT 2, NULL", options));
    auto cleared = PrepareDeleteWhere(*conn_, Load(), "TRUE");
    ASSERT_TRUE(cleared) << cleared.error().ToString();
    ASSERT_TRUE((*cleared)->Commit(*catalog_));
    ASSERT_TRUE(Rows().empty());
  }
}

TEST(BoundTruncationTest, FollowsTheSpecConvention) {
  EXPECT_EQ(TruncateLowerBound("abcdefghijklmnopqrstuvwxyz", 16), "abcdefghijklmnop");
  EXPECT_EQ(TruncateUpperBound("abcdefghijklmnopqrstuvwxyz", 16), "abcdefghijklmnoq");
  EXPECT_EQ(TruncateUpperBound("short", 16), "short");
  // 15 ASCII bytes + a 2-byte code point: the cut may not split it.
  const std::string accented = std::string(15, 'a') + "\xc3\xa9" + "zz";
  EXPECT_EQ(TruncateLowerBound(accented, 16), std::string(15, 'a'));
  EXPECT_EQ(TruncateUpperBound(accented, 16), std::string(14, 'a') + "b");
  // The largest code point cannot be incremented: it is dropped and the one before bumped.
  const std::string top = "a" + std::string("\xf4\x8f\xbf\xbf") + std::string(20, 'x');
  EXPECT_EQ(TruncateUpperBound(top, 5), "b");
}

}  // namespace
}  // namespace databox::iceberg
