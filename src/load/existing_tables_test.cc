// The tables an ingest committed, read back from the catalog, are the tables the normalizer made
// of the same records: what a later load continues from.
#include "load/existing_tables.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "load/file_ingest.h"
#include "load/resource_hints.h"
#include "load/test_util.h"
#include "normalize/normalizer.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

class ExistingTablesTest : public testing::ExampleWorkspaceTest {
 protected:
  ExistingTablesTest() : ExampleWorkspaceTest("databox_existing_tables") {}
};

// Child tables two levels deep, a variant column, a merge key and its root key: every table's
// parent and every column's type and flags (dlt's system-column hints included) come back.
TEST_F(ExistingTablesTest, AreTheTablesTheNormalizerMade) {
  const std::string records =
      R"({"id": 1, "n": 1, "geo": {"lat": 1.5}, "tags": [{"t": "a", "ys": [1, 2]}]})"
      "\n"
      R"({"id": 2, "n": 2.5, "tags": [{"t": "b", "ys": []}], "notes": ["x"]})"
      "\n";
  const fs::path file = dir_ / "events.ndjson";
  std::ofstream(file) << records;
  IngestRequest request;
  request.files = {file};
  request.table = "raw_dump.events";
  request.disposition = registry::WriteDisposition::kMerge;
  request.primary_key = {"id"};
  request.workers = 1;
  auto ingested = IngestFiles(*workspace_, request);
  ASSERT_TRUE(ingested) << ingested.error().message;

  // The hints the ingest normalized with: those of a merge resource `events` keyed by id.
  registry::Source source;
  source.name = "dump";
  registry::Resource resource;
  resource.name = "events";
  resource.write_disposition = request.disposition;
  resource.primary_key = request.primary_key;
  auto hints = HintsFor(source, resource);
  ASSERT_TRUE(hints) << hints.error().message;
  auto normalizer = normalize::Normalizer::Make(*hints, "1");
  ASSERT_TRUE(normalizer) << normalizer.error().message;
  std::istringstream lines(records);
  for (std::string line; std::getline(lines, line);) {
    ASSERT_TRUE((*normalizer)->AddJsonText(line));
  }
  std::map<std::string, normalize::TableSchema> made;
  for (normalize::TableSchema& table : (*normalizer)->Schemas()) made[table.name] = table;

  TableReads reads(workspace_->catalog());
  auto existing = ExistingTables(reads, "raw_dump", *hints);
  ASSERT_TRUE(existing) << existing.error().message;
  ASSERT_EQ(existing->size(), made.size());
  EXPECT_EQ(existing->front().name, "events");
  for (const normalize::TableSchema& table : *existing) {
    SCOPED_TRACE(table.name);
    ASSERT_TRUE(made.contains(table.name));
    const normalize::TableSchema& expected = made.at(table.name);
    EXPECT_EQ(table.parent, expected.parent);
    EXPECT_EQ(table.resource, expected.resource);
    EXPECT_EQ(table.write_disposition, expected.write_disposition);
    EXPECT_EQ(table.columns, expected.columns);
  }
  EXPECT_EQ(made.at("events__tags__ys").parent, "events__tags");
  EXPECT_TRUE(made.at("events").FindColumn("n__v_double")->variant);
}

TEST_F(ExistingTablesTest, NoneBeforeTheFirstLoad) {
  normalize::ResourceHints hints;
  hints.resource = "events";
  hints.table_name = "events";
  TableReads reads(workspace_->catalog());
  auto existing = ExistingTables(reads, "raw_nothing", hints);
  ASSERT_TRUE(existing) << existing.error().message;
  EXPECT_TRUE(existing->empty());
}

}  // namespace
}  // namespace databox::load
