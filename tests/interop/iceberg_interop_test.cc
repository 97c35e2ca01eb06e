// Interop: tables written by our Iceberg writer are read by pyiceberg (SqlCatalog on the same
// SQLite file) and by DuckDB's iceberg extension; a table pyiceberg created is appended to and
// merged into by us and read back by pyiceberg; 4 processes append concurrently. Expected rows
// are literals in this file, never produced by our reader. Needs the venv and DuckDB extensions.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "catalog/sql/sql_catalog.h"
#include "common/test_paths.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "fileio/local/local_file_io.h"
#include "iceberg/commit/table_operations.h"
#include "iceberg/data/data_files.h"
#include "iceberg/data/merge.h"
#include "iceberg/table.h"

namespace databox::iceberg {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

NestedField Field(int32_t id, std::string name, bool required, Type type) {
  return NestedField{.id = id,
                     .name = std::move(name),
                     .required = required,
                     .type = std::move(type),
                     .doc = std::nullopt};
}

class IcebergInteropTest : public testing::Test {
 protected:
  void SetUp() override {
    python_ = test_paths::VenvDir() + "/bin/python";
    if (!fs::exists(python_))
      GTEST_SKIP() << "no venv at " << test_paths::VenvDir() << ": run scripts/setup";
    std::string templ = (fs::temp_directory_path() / "iceberg_interop_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    db_path_ = (dir_ / "catalog.db").native();
    warehouse_ = "file://" + (dir_ / "warehouse").native();
    catalog_ = Connect();
    ASSERT_NE(catalog_, nullptr);
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }

  std::unique_ptr<catalog::sql::SqlCatalog> Connect() {
    auto catalog = catalog::sql::SqlCatalog::Open(
        {.name = "databox", .uri = "sqlite:///" + db_path_, .warehouse = warehouse_}, io_);
    EXPECT_TRUE(catalog) << catalog.error().ToString();
    return catalog ? std::move(*catalog) : nullptr;
  }

  duck::Connection& Duck() {
    if (!conn_) {
      auto db = duck::Database::Open(
          "", duck::DatabaseOptions{.threads = 1, .settings = {{"TimeZone", "UTC"}}});
      EXPECT_TRUE(db) << db.error().ToString();
      db_.emplace(std::move(*db));
      conn_.emplace(std::move(*duck::Connection::Open(*db_)));
    }
    return *conn_;
  }

  void Create(const std::string& name, const Schema& schema,
              const PartitionSpec& spec = PartitionSpec::Unpartitioned()) {
    auto exists = catalog_->NamespaceExists({"interop"});
    if (exists && !*exists) {
      ASSERT_TRUE(catalog_->CreateNamespace({"interop"}, {}));
    }
    auto created = catalog_->CreateTable({{"interop"}, name}, schema, spec, SortOrder::Unsorted(),
                                         {}, std::nullopt);
    ASSERT_TRUE(created) << created.error().ToString();
  }

  Table Load(const std::string& name, iceberg::Catalog* catalog = nullptr) {
    auto table = Table::Load(catalog ? *catalog : *catalog_, io_, {{"interop"}, name});
    EXPECT_TRUE(table) << table.error().ToString();
    return std::move(*table);
  }

  static Status AppendWith(iceberg::Catalog& catalog, duck::Connection& conn,
                           const std::shared_ptr<fileio::FileIO>& io, const std::string& name,
                           const std::string& select, SnapshotChange change = {}) {
    DATABOX_ASSIGN_OR_RETURN(Table table, Table::Load(catalog, io, {{"interop"}, name}));
    DATABOX_ASSIGN_OR_RETURN(auto files, WriteDataFiles(conn, *io, table.metadata(), select));
    auto op = table.NewAppend(std::move(change));
    op->AddFiles(std::move(files));
    RetryPolicy patient;
    patient.max_attempts = 200;
    patient.budget = std::chrono::minutes(5);
    DATABOX_RETURN_IF_ERROR(op->Commit(catalog, patient));
    return Ok();
  }

  void Append(const std::string& name, const std::string& select, SnapshotChange change = {}) {
    auto appended = AppendWith(*catalog_, Duck(), io_, name, select, std::move(change));
    ASSERT_TRUE(appended) << appended.error().ToString();
  }

  void Merge(const std::string& name, const std::string& incoming,
             const RowChangeOptions& options = {}) {
    auto op = PrepareMerge(Duck(), Load(name), incoming, options);
    ASSERT_TRUE(op) << op.error().ToString();
    auto committed = (*op)->Commit(*catalog_);
    ASSERT_TRUE(committed) << committed.error().ToString();
  }

  //! Runs a python script from tests/interop; true when it exits 0 (its output is printed).
  bool RunPython(const std::string& script, const std::string& args) {
    const std::string log = (dir_ / "python.log").native();
    const std::string command = python_ + " " + test_paths::SourceDir() + "/tests/interop/" +
                                script + " " + args + " > " + log + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(log);
    std::cout << in.rdbuf() << std::endl;
    return status == 0;
  }

  bool Check(const json& expectations) {
    const std::string path = (dir_ / "expectations.json").native();
    std::ofstream(path) << expectations.dump(1);
    return RunPython("check_tables.py", db_path_ + " " + warehouse_ + " " + path + " " +
                                            duck::DefaultExtensionDirectory());
  }

  std::string python_;
  fs::path dir_;
  std::string db_path_;
  std::string warehouse_;
  std::shared_ptr<fileio::FileIO> io_ = std::make_shared<fileio::LocalFileIO>();
  std::unique_ptr<catalog::sql::SqlCatalog> catalog_;
  std::optional<duck::Database> db_;
  std::optional<duck::Connection> conn_;
};

Schema Birds(bool keyed = false) {
  return Schema(0, {Field(1, "id", true, Type::Long()), Field(2, "name", false, Type::String())},
                keyed ? std::vector<int32_t>{1} : std::vector<int32_t>{});
}

TEST_F(IcebergInteropTest, OurTablesAreReadByPyIcebergAndDuckDB) {
  json want;

  Create("appended", Birds());
  Append("appended", "SELECT 1 AS id, 'wren' AS name UNION ALL SELECT 2, NULL");
  Append("appended", "SELECT 3 AS id, 'kite' AS name");
  want["interop.appended"] = {{"rows", {{1, "wren"}, {2, nullptr}, {3, "kite"}}},
                              {"field_ids", {{"id", 1}, {"name", 2}}},
                              {"operations", {"append", "append"}}};

  Create("replaced", Birds());
  Append("replaced", "SELECT 1 AS id, 'a' AS name UNION ALL SELECT 2, 'b'");
  {
    Table table = Load("replaced");
    auto op = table.NewReplaceAll();
    auto files = WriteDataFiles(Duck(), *io_, table.metadata(), "SELECT 7 AS id, 'kite' AS name");
    ASSERT_TRUE(files) << files.error().ToString();
    op->AddFiles(*files);
    ASSERT_TRUE(op->Commit(*catalog_));
  }
  want["interop.replaced"] = {{"rows", {{7, "kite"}}}, {"operations", {"append", "overwrite"}}};

  Create("merged", Birds(true));
  Append("merged",
         "SELECT * FROM (VALUES (1, 'wren'), (2, 'owl'), (3, 'kite'), (4, 'tern')) AS t(id, name)");
  Merge("merged",
        "SELECT * FROM (VALUES (2, 'barn owl'), (3, 'red kite'), (5, 'crow')) AS t(id, name)");
  want["interop.merged"] = {
      {"rows", {{1, "wren"}, {2, "barn owl"}, {3, "red kite"}, {4, "tern"}, {5, "crow"}}},
      {"operations", {"append", "overwrite"}}};

  // Merge-on-read: position delete files that pyiceberg and DuckDB must apply; the second merge
  // deletes from the first merge's file, the delete applies to rows of two data files.
  Create("merged_on_read", Birds(true));
  Append("merged_on_read",
         "SELECT * FROM (VALUES (1, 'wren'), (2, 'owl'), (3, 'kite'), (4, 'tern')) AS t(id, name)");
  RowChangeOptions on_read;
  on_read.mode = RowChangeMode::kMergeOnRead;
  Merge("merged_on_read",
        "SELECT * FROM (VALUES (2, 'barn owl'), (3, 'red kite'), (5, 'crow')) AS t(id, name)",
        on_read);
  Merge("merged_on_read", "SELECT * FROM (VALUES (5, 'raven'), (4, 'sooty tern')) AS t(id, name)",
        on_read);
  {
    auto op = PrepareDeleteWhere(Duck(), Load("merged_on_read"), "name = 'wren'", on_read);
    ASSERT_TRUE(op) << op.error().ToString();
    ASSERT_TRUE((*op)->Commit(*catalog_));
    auto live = Load("merged_on_read").Live();
    ASSERT_TRUE(live) << live.error().ToString();
    ASSERT_EQ(live->deletes.size(), 4u);  // the check below must really apply delete files
  }
  want["interop.merged_on_read"] = {
      {"rows", {{2, "barn owl"}, {3, "red kite"}, {4, "sooty tern"}, {5, "raven"}}},
      {"operations", {"append", "overwrite", "overwrite", "delete"}}};

  // The same, compacted: the data files with deletes rewritten in a "replace" snapshot.
  Create("compacted", Birds(true));
  Append("compacted",
         "SELECT * FROM (VALUES (1, 'wren'), (2, 'owl'), (3, 'kite'), (4, 'tern')) AS t(id, name)");
  Merge("compacted", "SELECT * FROM (VALUES (2, 'barn owl'), (5, 'crow')) AS t(id, name)", on_read);
  {
    auto op = PrepareDeleteRewrite(Duck(), Load("compacted"));
    ASSERT_TRUE(op) << op.error().ToString();
    ASSERT_NE(*op, nullptr);
    ASSERT_TRUE((*op)->Commit(*catalog_));
  }
  want["interop.compacted"] = {
      {"rows", {{1, "wren"}, {2, "barn owl"}, {3, "kite"}, {4, "tern"}, {5, "crow"}}},
      {"operations", {"append", "overwrite", "replace"}}};

  Create("evolved",
         Schema(0, {Field(1, "id", true, Type::Int()), Field(2, "name", false, Type::String())}));
  Append("evolved", "SELECT 1 AS id, 'wren' AS name");
  {
    SchemaUpdate update(
        {{"interop"}, "evolved"},
        Schema(0, {Field(1, "id", true, Type::Long()), Field(2, "name", false, Type::String()),
                   Field(3, "mass", false, Type::Double())}));
    auto committed = CommitChange(*catalog_, *io_, update);
    ASSERT_TRUE(committed) << committed.error().ToString();
  }
  Append("evolved", "SELECT 2 AS id, 'owl' AS name, 1.5 AS mass");
  want["interop.evolved"] = {{"rows", {{1, "wren", nullptr}, {2, "owl", 1.5}}},
                             {"field_ids", {{"id", 1}, {"name", 2}, {"mass", 3}}},
                             {"types", {{"id", "long"}, {"mass", "double"}}},
                             {"operations", {"append", "append"}}};

  Create("nested", Schema(0, {Field(1, "id", true, Type::Long()),
                              Field(2, "s", false,
                                    Type::Struct({Field(3, "a", false, Type::String()),
                                                  Field(4, "b", false, Type::Int())})),
                              Field(5, "l", false, Type::List(6, false, Type::Long()))}));
  Append("nested",
         "SELECT 1::BIGINT AS id, {'a': 'x', 'b': 7} AS s, [10::BIGINT, 20] AS l "
         "UNION ALL SELECT 2, NULL, []");
  // Fresh ids on create: top-level fields first, then each struct's children.
  want["interop.nested"] = {
      {"rows", {{1, {{"a", "x"}, {"b", 7}}, {10, 20}}, {2, nullptr, json::array()}}},
      {"field_ids", {{"id", 1}, {"s", 2}, {"l", 3}, {"s.a", 4}, {"s.b", 5}, {"l.element", 6}}},
      {"operations", {"append"}}};

  PartitionSpec daily;
  daily.fields.push_back(PartitionField{
      .source_id = 2, .field_id = 1000, .name = "ts_day", .transform = Transform::Day()});
  Create("daily",
         Schema(0, {Field(1, "id", true, Type::Long()), Field(2, "ts", false, Type::Timestamp())}),
         daily);
  Append("daily",
         "SELECT * FROM (VALUES (1, TIMESTAMP '2024-03-01 10:00:00'), (2, TIMESTAMP '2024-03-01 "
         "23:59:59'), (3, TIMESTAMP '2024-03-02 00:00:00'), (4, NULL)) AS t(id, ts)");
  {
    auto files = Load("daily").LiveDataFiles();
    ASSERT_TRUE(files);
    EXPECT_EQ(files->size(), 3u);  // 2024-03-01, 2024-03-02, null
    for (const auto& file : *files) {
      ASSERT_EQ(file.partition.size(), 1u);
      if (file.record_count == 2) {
        EXPECT_EQ(file.partition[0], Literal::Date(DaysFromCivil(2024, 3, 1)));
      }
    }
  }
  want["interop.daily"] = {{"rows",
                            {{1, "2024-03-01 10:00:00"},
                             {2, "2024-03-01 23:59:59"},
                             {3, "2024-03-02 00:00:00"},
                             {4, nullptr}}},
                           {"operations", {"append"}}};

  // Merge-on-read on a partitioned table: each delete file carries its data file's partition
  // (here a day and the null partition).
  Create("daily_deleted",
         Schema(0, {Field(1, "id", true, Type::Long()), Field(2, "ts", false, Type::Timestamp())}),
         daily);
  Append("daily_deleted",
         "SELECT * FROM (VALUES (1, TIMESTAMP '2024-03-01 10:00:00'), (2, TIMESTAMP '2024-03-01 "
         "23:59:59'), (3, TIMESTAMP '2024-03-02 00:00:00'), (4, NULL)) AS t(id, ts)");
  {
    RowChangeOptions deletes;
    deletes.mode = RowChangeMode::kMergeOnRead;
    auto op = PrepareDeleteWhere(Duck(), Load("daily_deleted"), "id = 2 OR id = 4", deletes);
    ASSERT_TRUE(op) << op.error().ToString();
    ASSERT_TRUE((*op)->Commit(*catalog_));
    auto live = Load("daily_deleted").Live();
    ASSERT_TRUE(live) << live.error().ToString();
    ASSERT_EQ(live->deletes.size(), 2u);
    for (const auto& file : live->deletes) {
      ASSERT_EQ(file.partition.size(), 1u);
      if (file.partition[0]) {
        EXPECT_EQ(file.partition[0], Literal::Date(DaysFromCivil(2024, 3, 1)));
      }
    }
  }
  want["interop.daily_deleted"] = {
      {"rows", {{1, "2024-03-01 10:00:00"}, {3, "2024-03-02 00:00:00"}}},
      {"operations", {"append", "delete"}}};

  Create("wap", Birds());
  Append("wap", "SELECT 1 AS id, 'wren' AS name");
  SnapshotChange audit;
  audit.branch = "audit";
  Append("wap", "SELECT 2 AS id, 'owl' AS name", audit);
  EXPECT_EQ(Load("wap").History().size(), 1u);  // main has not moved yet
  {
    FastForward publish({{"interop"}, "wap"}, "audit");
    auto committed = CommitChange(*catalog_, *io_, publish);
    ASSERT_TRUE(committed) << committed.error().ToString();
  }
  want["interop.wap"] = {{"rows", {{1, "wren"}, {2, "owl"}}}, {"operations", {"append", "append"}}};

  EXPECT_TRUE(Check(want));
}

TEST_F(IcebergInteropTest, WeAppendAndMergeIntoATablePyIcebergCreated) {
  ASSERT_TRUE(RunPython("pyiceberg_table.py", "create " + db_path_ + " " + warehouse_));
  Append("from_pyiceberg", "SELECT 4 AS id, 'crow' AS name");
  Merge("from_pyiceberg", "SELECT * FROM (VALUES (1, 'winter wren'), (5, 'tern')) AS t(id, name)");
  json want;
  want["interop.from_pyiceberg"] = {
      {"rows", {{1, "winter wren"}, {2, "owl"}, {3, "kite"}, {4, "crow"}, {5, "tern"}}},
      {"field_ids", {{"id", 1}, {"name", 2}}},
      {"operations", {"append", "append", "overwrite"}}};
  EXPECT_TRUE(Check(want));
  // pyiceberg's statistics file for its snapshot survives our two commits.
  ASSERT_TRUE(RunPython("pyiceberg_table.py", "statistics " + db_path_ + " " + warehouse_));
  std::ifstream log(dir_ / "python.log");
  const std::string seen((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(seen.find(".puffin 3"), std::string::npos) << seen;
}

TEST_F(IcebergInteropTest, FourProcessesAppendingConcurrentlyLoseNothing) {
  constexpr int kProcesses = 4;
  constexpr int kAppends = 50;
  Create("concurrent", Birds());
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Child: its own catalog connection and DuckDB; exit code 0 only if all appends land.
      auto catalog = Connect();
      auto db = duck::Database::Open("", duck::DatabaseOptions{.threads = 1});
      if (!catalog || !db) ::_exit(2);
      auto conn = duck::Connection::Open(*db);
      if (!conn) ::_exit(3);
      for (int i = 0; i < kAppends; ++i) {
        const std::string select = "SELECT " + std::to_string(p * 1000 + i) + " AS id, 'p" +
                                   std::to_string(p) + "' AS name";
        auto appended = AppendWith(*catalog, *conn, io_, "concurrent", select);
        if (!appended) {
          std::fprintf(stderr, "process %d append %d: %s\n", p, i,
                       appended.error().ToString().c_str());
          ::_exit(1);
        }
      }
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  json rows = json::array();
  for (int p = 0; p < kProcesses; ++p) {
    for (int i = 0; i < kAppends; ++i) rows.push_back({p * 1000 + i, "p" + std::to_string(p)});
  }
  json want;
  want["interop.concurrent"] = {{"rows", rows}, {"snapshot_count", kProcesses * kAppends}};
  EXPECT_TRUE(Check(want));
}

}  // namespace
}  // namespace databox::iceberg
