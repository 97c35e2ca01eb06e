// One catalog read per table per load: a load of a source whose tables exist reads each of them
// (data and system tables) from the catalog once, through TableReads, and the commit's first
// attempt starts from that read; a change the load commits itself, or a conflict, reads again.
#include "load/table_reads.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "load/source_load.h"
#include "load/test_util.h"
#include "load/workspace.h"

namespace databox::load {
namespace {

//! Another catalog, as it is, that counts the LoadTable calls per table.
class CountingCatalog final : public iceberg::Catalog {
 public:
  explicit CountingCatalog(iceberg::Catalog& inner) : inner_(inner) {}

  std::map<std::string, int> loads;  //!< LoadTable calls by table

  std::string_view Name() const override { return inner_.Name(); }
  Status CreateNamespace(const iceberg::Namespace& ns,
                         const iceberg::Properties& properties) override {
    return inner_.CreateNamespace(ns, properties);
  }
  Result<std::vector<iceberg::Namespace>> ListNamespaces(
      const iceberg::Namespace& parent) override {
    return inner_.ListNamespaces(parent);
  }
  Result<bool> NamespaceExists(const iceberg::Namespace& ns) override {
    return inner_.NamespaceExists(ns);
  }
  Result<iceberg::Properties> LoadNamespaceProperties(const iceberg::Namespace& ns) override {
    return inner_.LoadNamespaceProperties(ns);
  }
  Status UpdateNamespaceProperties(const iceberg::Namespace& ns,
                                   std::span<const std::string> removals,
                                   const iceberg::Properties& updates) override {
    return inner_.UpdateNamespaceProperties(ns, removals, updates);
  }
  Status DropNamespace(const iceberg::Namespace& ns) override { return inner_.DropNamespace(ns); }
  Result<std::vector<iceberg::TableIdentifier>> ListTables(const iceberg::Namespace& ns) override {
    return inner_.ListTables(ns);
  }
  Result<bool> TableExists(const iceberg::TableIdentifier& table) override {
    return inner_.TableExists(table);
  }
  Result<iceberg::LoadedTable> LoadTable(const iceberg::TableIdentifier& table) override {
    ++loads[table.ToString()];
    return inner_.LoadTable(table);
  }
  Result<iceberg::LoadedTable> CreateTable(const iceberg::TableIdentifier& table,
                                           const iceberg::Schema& schema,
                                           const iceberg::PartitionSpec& spec,
                                           const iceberg::SortOrder& sort_order,
                                           const iceberg::Properties& properties,
                                           std::optional<std::string> location) override {
    return inner_.CreateTable(table, schema, spec, sort_order, properties, std::move(location));
  }
  Result<iceberg::LoadedTable> CommitTable(const iceberg::TableCommit& commit) override {
    return inner_.CommitTable(commit);
  }
  Result<std::vector<iceberg::LoadedTable>> CommitTransaction(
      std::span<const iceberg::TableCommit> commits) override {
    return inner_.CommitTransaction(commits);
  }
  Status DropTable(const iceberg::TableIdentifier& table) override {
    return inner_.DropTable(table);
  }
  Status RenameTable(const iceberg::TableIdentifier& from,
                     const iceberg::TableIdentifier& to) override {
    return inner_.RenameTable(from, to);
  }
  Result<iceberg::LoadedTable> RegisterTable(const iceberg::TableIdentifier& table,
                                             std::string_view metadata_location) override {
    return inner_.RegisterTable(table, metadata_location);
  }
  Result<iceberg::TableMetadata> PrepareCreateTable(
      const iceberg::TableIdentifier& table, const iceberg::Schema& schema,
      const iceberg::PartitionSpec& spec, const iceberg::SortOrder& sort_order,
      const iceberg::Properties& properties) override {
    return inner_.PrepareCreateTable(table, schema, spec, sort_order, properties);
  }
  bool TransactionsCreateTables() const override { return inner_.TransactionsCreateTables(); }
  bool TableFoldersAreItsOwn(std::string_view table_location) const override {
    return inner_.TableFoldersAreItsOwn(table_location);
  }
  bool KeepsHistoryOutsideMetadata() const override { return inner_.KeepsHistoryOutsideMetadata(); }
  const iceberg::TableNames& table_names() const override { return inner_.table_names(); }

 private:
  iceberg::Catalog& inner_;
};

//! Another workspace's sources, as they are.
class SameSources final : public source::SourceFactory {
 public:
  explicit SameSources(const source::SourceFactory& inner) : inner_(inner) {}
  Result<std::unique_ptr<source::Source>> Make(const registry::Source& source,
                                               const source::SourceInput& input) const override {
    return inner_.Make(source, input);
  }

 private:
  const source::SourceFactory& inner_;
};

class TableReadsTest : public testing::ExampleWorkspaceTest {
 protected:
  TableReadsTest() : ExampleWorkspaceTest("databox_table_reads") {}

  //! The example workspace with `catalog` in front of its catalog.
  std::unique_ptr<Workspace> CountedWorkspace(std::unique_ptr<iceberg::Catalog> catalog) {
    WorkspaceParts parts;
    parts.catalog = std::move(catalog);
    parts.file_io = workspace_->file_io();
    parts.sources = std::make_unique<SameSources>(workspace_->sources());
    return std::make_unique<Workspace>(registry_, std::move(parts));
  }
};

TEST_F(TableReadsTest, ALoadOfExistingTablesReadsEachOfThemOnce) {
  // noaa: two merge tables (daily_weather, stations), a replace table (datasets, streamed to
  // its files), and the two system tables.
  const registry::Source* noaa = registry_.FindSource("noaa");
  ASSERT_NE(noaa, nullptr);
  auto first = LoadSource(*workspace_, *noaa);
  ASSERT_TRUE(first) << first.error().message;

  auto counting = std::make_unique<CountingCatalog>(workspace_->catalog());
  CountingCatalog& catalog = *counting;
  auto counted = CountedWorkspace(std::move(counting));
  auto second = LoadSource(*counted, *noaa);
  ASSERT_TRUE(second) << second.error().message;

  std::map<std::string, int> expected;
  for (const TableOutcome& table : second->tables) expected[table.table] = 1;
  ASSERT_EQ(expected.size(), 5u);
  EXPECT_EQ(catalog.loads, expected);
}

TEST_F(TableReadsTest, AReadIsMadeOnceAndReplacedByTheLoadsOwnChange) {
  const registry::Source* noaa = registry_.FindSource("noaa");
  ASSERT_NE(noaa, nullptr);
  ASSERT_TRUE(LoadSource(*workspace_, *noaa));
  CountingCatalog catalog(workspace_->catalog());
  TableReads reads(catalog);
  const iceberg::TableIdentifier stations{{"raw_noaa"}, "stations"};
  const iceberg::TableIdentifier missing{{"raw_noaa"}, "nothing"};

  auto read = reads.Read(stations);
  ASSERT_TRUE(read && *read) << "stations exists";
  ASSERT_TRUE(reads.Read(stations));
  auto none = reads.Read(missing);
  ASSERT_TRUE(none.has_value()) << none.error().message;
  EXPECT_EQ(*none, std::nullopt);
  ASSERT_TRUE(reads.Read(missing));
  EXPECT_EQ(catalog.loads,
            (std::map<std::string, int>{{"raw_noaa.nothing", 1}, {"raw_noaa.stations", 1}}));

  iceberg::LoadedTable changed = **read;
  changed.metadata_location = "changed.metadata.json";
  reads.Replace(stations, changed);
  auto again = reads.Read(stations);
  ASSERT_TRUE(again && *again);
  EXPECT_EQ((*again)->metadata_location, "changed.metadata.json");
  EXPECT_EQ(catalog.loads.at("raw_noaa.stations"), 1);
}

}  // namespace
}  // namespace databox::load
