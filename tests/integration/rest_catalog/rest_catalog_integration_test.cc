// RestCatalog against a running REST catalog server (run.sh starts the FALLBACK Iceberg REST
// reference server over PostgreSQL + moto S3; it is NOT Polaris). Without
// DATABOX_SERVICES_STATE every test FAILS: services are required, never optional.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "catalog/rest/rest_catalog.h"
#include "iceberg/table_update.h"

namespace databox::catalog::rest {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::map<std::string, std::string> ReadEnvFile(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

iceberg::Schema BirdSchema() {
  return iceberg::Schema(0, {{.id = 1,
                              .name = "id",
                              .required = true,
                              .type = iceberg::Type::Long(),
                              .doc = std::nullopt},
                             {.id = 2,
                              .name = "name",
                              .required = false,
                              .type = iceberg::Type::String(),
                              .doc = std::nullopt}});
}

//! A unique suffix so reruns against a kept server never collide.
std::string Unique() { return std::to_string(::getpid()) + "_" + std::to_string(iceberg::NowMs()); }

class RestCatalogIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* state = std::getenv("DATABOX_SERVICES_STATE");
    ASSERT_NE(state, nullptr) << "DATABOX_SERVICES_STATE is not set: run this test through "
                                 "tests/integration/rest_catalog/run.sh, which starts the services";
    state_ = state;
    env_ = ReadEnvFile(state_ + "/polaris.env");
    ASSERT_TRUE(env_.contains("CATALOG_URI")) << "no CATALOG_URI in " << state_ << "/polaris.env";
    catalog_ = Open();
    ASSERT_NE(catalog_, nullptr);
  }

  std::unique_ptr<RestCatalog> Open() {
    RestCatalogOptions options;
    options.name = "fallback";
    options.uri = env_["CATALOG_URI"];
    options.warehouse = env_["CATALOG_WAREHOUSE"];
    auto catalog = RestCatalog::Open(options);
    EXPECT_TRUE(catalog.has_value()) << catalog.error().ToString();
    return catalog ? std::move(*catalog) : nullptr;
  }

  iceberg::LoadedTable CreateBirds(const iceberg::TableIdentifier& id,
                                   iceberg::Properties properties = {}) {
    auto exists = catalog_->NamespaceExists(id.ns);
    EXPECT_TRUE(exists.has_value()) << exists.error().ToString();
    if (exists && !*exists) {
      EXPECT_TRUE(catalog_->CreateNamespace(id.ns, {}).has_value());
    }
    auto created = catalog_->CreateTable(id, BirdSchema(), {}, {}, properties, std::nullopt);
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return created ? std::move(*created) : iceberg::LoadedTable{};
  }

  int RunPython(const std::string& args) {
    const std::string command = std::string(DATABOX_VENV_DIR) + "/bin/python " +
                                DATABOX_SOURCE_DIR + "/tests/integration/rest_catalog/interop.py " +
                                state_ + " " + args;
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string state_;
  std::map<std::string, std::string> env_;
  std::unique_ptr<RestCatalog> catalog_;
};

TEST_F(RestCatalogIntegrationTest, NamespaceAndTableLifecycle) {
  const std::string top = "life_" + Unique();
  const iceberg::Namespace ns{top};
  ASSERT_TRUE(catalog_->CreateNamespace({top}, {{"owner", "databox"}}).has_value());
  EXPECT_EQ(catalog_->CreateNamespace(ns, {}).error().kind, ErrorKind::kAlreadyExists);
  EXPECT_TRUE(catalog_->NamespaceExists(ns).value());
  EXPECT_FALSE(catalog_->NamespaceExists({top + "_nope"}).value());
  auto top_level = catalog_->ListNamespaces({});
  ASSERT_TRUE(top_level.has_value()) << top_level.error().ToString();
  EXPECT_TRUE(std::ranges::find(*top_level, ns) != top_level->end());

  std::vector<std::string> removals{"owner"};
  ASSERT_TRUE(catalog_->UpdateNamespaceProperties({top}, removals, {{"team", "raw"}}));
  auto properties = catalog_->LoadNamespaceProperties({top});
  ASSERT_TRUE(properties.has_value()) << properties.error().ToString();
  EXPECT_EQ(properties->count("owner"), 0u);
  EXPECT_EQ(properties->at("team"), "raw");

  const iceberg::TableIdentifier birds{ns, "birds"};
  iceberg::LoadedTable created = CreateBirds(birds);
  EXPECT_THAT(created.metadata_location, HasSubstr(".metadata.json"));
  EXPECT_EQ(catalog_->CreateTable(birds, BirdSchema(), {}, {}, {}, {}).error().kind,
            ErrorKind::kAlreadyExists);
  EXPECT_TRUE(catalog_->TableExists(birds).value());
  EXPECT_THAT(catalog_->ListTables(ns).value(), ElementsAre(birds));
  auto loaded = catalog_->LoadTable(birds);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata.table_uuid, created.metadata.table_uuid);
  EXPECT_EQ(loaded->metadata.CurrentSchema()->fields().size(), 2u);

  EXPECT_EQ(catalog_->DropNamespace(ns).error().kind, ErrorKind::kConflict);
  const iceberg::TableIdentifier renamed{ns, "birds2"};
  ASSERT_TRUE(catalog_->RenameTable(birds, renamed).has_value());
  EXPECT_FALSE(catalog_->TableExists(birds).value());
  EXPECT_EQ(catalog_->LoadTable(birds).error().kind, ErrorKind::kNotFound);

  // Register the renamed table's metadata under a new name, then drop both names.
  const iceberg::TableIdentifier registered{ns, "birds3"};
  auto reg = catalog_->RegisterTable(registered, catalog_->LoadTable(renamed)->metadata_location);
  ASSERT_TRUE(reg.has_value()) << reg.error().ToString();
  EXPECT_EQ(reg->metadata.table_uuid, created.metadata.table_uuid);
  ASSERT_TRUE(catalog_->DropTable(renamed).has_value());
  ASSERT_TRUE(catalog_->DropTable(registered).has_value());
  EXPECT_EQ(catalog_->DropTable(renamed).error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE(catalog_->DropNamespace(ns).has_value());
  EXPECT_EQ(catalog_->LoadNamespaceProperties({top}).error().kind, ErrorKind::kNotFound);
}

TEST_F(RestCatalogIntegrationTest, MultiLevelNamespaceListing) {
  const std::string top = "multi_" + Unique();
  ASSERT_TRUE(catalog_->CreateNamespace({top}, {}).has_value());
  ASSERT_TRUE(catalog_->CreateNamespace({top, "inner"}, {}).has_value());
  EXPECT_THAT(catalog_->ListNamespaces({top}).value(),
              ElementsAre(iceberg::Namespace{top, "inner"}));
}

// DISABLED (a known FALLBACK server defect, not ours): the FALLBACK launcher hands the
// reference adapter an already percent-decoded path, so "a%1Fb" arrives as one level
// "a\x1Fb" and every path naming a multi-level namespace answers 404. Curl against the
// server shows the same. Enable once services/iceberg-rest-fallback passes the raw path.
TEST_F(RestCatalogIntegrationTest, DISABLED_MultiLevelNamespacePaths) {
  const std::string top = "multipath_" + Unique();
  const iceberg::Namespace ns{top, "inner"};
  ASSERT_TRUE(catalog_->CreateNamespace({top}, {}).has_value());
  ASSERT_TRUE(catalog_->CreateNamespace(ns, {}).has_value());
  EXPECT_TRUE(catalog_->NamespaceExists(ns).value());
  CreateBirds({ns, "birds"});
  EXPECT_TRUE(catalog_->TableExists({ns, "birds"}).value());
}

TEST_F(RestCatalogIntegrationTest, CommitWithRequirementsAndStaleConflict) {
  const iceberg::TableIdentifier id{{"commit_" + Unique()}, "t"};
  iceberg::LoadedTable base = CreateBirds(id);
  auto other = Open();
  auto other_base = other->LoadTable(id);
  ASSERT_TRUE(other_base.has_value());

  // Client A evolves the schema; its requirements hold.
  iceberg::Schema wider(1, {BirdSchema().fields()[0],
                            BirdSchema().fields()[1],
                            {.id = 3,
                             .name = "count",
                             .required = false,
                             .type = iceberg::Type::Long(),
                             .doc = std::nullopt}});
  iceberg::TableCommit evolve{
      .identifier = id,
      .requirements = {iceberg::AssertTableUuid{base.metadata.table_uuid},
                       iceberg::AssertCurrentSchemaId{base.metadata.current_schema_id},
                       iceberg::AssertLastAssignedFieldId{base.metadata.last_column_id}},
      .updates = {iceberg::AddSchema{wider, 3}, iceberg::SetCurrentSchema{iceberg::kLastAdded}}};
  auto committed = catalog_->CommitTable(evolve);
  ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  EXPECT_EQ(committed->metadata.CurrentSchema()->fields().size(), 3u);
  EXPECT_NE(committed->metadata_location, base.metadata_location);

  // Client B planned against the old schema: its requirement is stale.
  iceberg::TableCommit stale = evolve;
  stale.updates = {iceberg::SetProperties{{{"b", "1"}}}};
  auto rejected = other->CommitTable(stale);
  ASSERT_FALSE(rejected.has_value());
  EXPECT_EQ(rejected.error().kind, ErrorKind::kConflict) << rejected.error().ToString();

  // After a reload and re-plan B's commit lands.
  auto fresh = other->LoadTable(id);
  ASSERT_TRUE(fresh.has_value());
  stale.requirements = {iceberg::AssertCurrentSchemaId{fresh->metadata.current_schema_id}};
  auto retried = other->CommitTable(stale);
  ASSERT_TRUE(retried.has_value()) << retried.error().ToString();
  EXPECT_EQ(retried->metadata.properties.at("b"), "1");
}

TEST_F(RestCatalogIntegrationTest, StagedCreateThenAssertCreateCommit) {
  const iceberg::TableIdentifier id{{"staged_" + Unique()}, "t"};
  ASSERT_TRUE(catalog_->CreateNamespace(id.ns, {}).has_value());
  auto staged = catalog_->StageCreateTable(id, BirdSchema(), {}, {}, {{"stage", "yes"}}, {});
  ASSERT_TRUE(staged.has_value()) << staged.error().ToString();
  EXPECT_FALSE(catalog_->TableExists(id).value()) << "a staged create must not create the table";

  iceberg::TableCommit create{.identifier = id,
                              .requirements = {iceberg::AssertCreate{}},
                              .updates = iceberg::CreateTableUpdates(staged->metadata)};
  auto committed = catalog_->CommitTable(create);
  ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  EXPECT_EQ(committed->metadata.table_uuid, staged->metadata.table_uuid);
  EXPECT_TRUE(catalog_->TableExists(id).value());
  // The same create again: the table exists now, so assert-create fails.
  auto again = catalog_->CommitTable(create);
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind, ErrorKind::kConflict) << again.error().ToString();
}

TEST_F(RestCatalogIntegrationTest, MultiTableTransaction) {
  const iceberg::Namespace ns{"tx_" + Unique()};
  iceberg::LoadedTable a = CreateBirds({ns, "a"});
  iceberg::LoadedTable b = CreateBirds({ns, "b"});
  std::vector<iceberg::TableCommit> commits{
      {.identifier = {ns, "a"},
       .requirements = {iceberg::AssertTableUuid{a.metadata.table_uuid}},
       .updates = {iceberg::SetProperties{{{"load_id", "1"}}}}},
      {.identifier = {ns, "b"},
       .requirements = {iceberg::AssertTableUuid{b.metadata.table_uuid}},
       .updates = {iceberg::SetProperties{{{"load_id", "1"}}}}}};
  auto results = catalog_->CommitTransaction(commits);
  ASSERT_TRUE(results.has_value()) << results.error().ToString();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[0].metadata.properties.at("load_id"), "1");
  EXPECT_EQ((*results)[1].metadata.properties.at("load_id"), "1");

  // One stale requirement fails the whole transaction: neither table changes.
  commits[0].updates = {iceberg::SetProperties{{{"load_id", "2"}}}};
  commits[1].updates = {iceberg::SetProperties{{{"load_id", "2"}}}};
  commits[1].requirements = {iceberg::AssertTableUuid{"00000000-0000-4000-8000-000000000000"}};
  auto failed = catalog_->CommitTransaction(commits);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().kind, ErrorKind::kConflict) << failed.error().ToString();
  EXPECT_EQ(catalog_->LoadTable({ns, "a"})->metadata.properties.at("load_id"), "1");
  EXPECT_EQ(catalog_->LoadTable({ns, "b"})->metadata.properties.at("load_id"), "1");
}

TEST_F(RestCatalogIntegrationTest, PyicebergReadsOursAndWeReadTheirs) {
  const iceberg::Namespace ns{"interop_" + Unique()};
  CreateBirds({ns, "ours"}, {{"made.by", "databox"}});
  ASSERT_EQ(RunPython("check-ours " + ns[0] + " ours"), 0);
  ASSERT_EQ(RunPython("make-theirs " + ns[0] + " theirs"), 0);
  auto theirs = catalog_->LoadTable({ns, "theirs"});
  ASSERT_TRUE(theirs.has_value()) << theirs.error().ToString();
  EXPECT_EQ(theirs->metadata.properties.at("made.by"), "pyiceberg");
  const auto* schema = theirs->metadata.CurrentSchema();
  ASSERT_NE(schema, nullptr);
  ASSERT_EQ(schema->fields().size(), 2u);
  EXPECT_EQ(schema->fields()[0].name, "id");
  EXPECT_TRUE(schema->fields()[0].required);
  EXPECT_EQ(schema->fields()[1].name, "name");
  const auto* snapshot = theirs->metadata.CurrentSnapshot();
  ASSERT_NE(snapshot, nullptr);
  EXPECT_EQ(snapshot->operation(), "append");
  EXPECT_EQ(snapshot->summary.at("added-records"), "3");
}

//! One worker process: `commits` snapshots on `id`, each re-planned on kConflict. Exit code 0
//! when all landed.
int CommitWorker(const RestCatalogOptions& options, const iceberg::TableIdentifier& id, int worker,
                 int commits) {
  auto catalog = RestCatalog::Open(options);
  if (!catalog) return 10;
  for (int i = 0; i < commits; ++i) {
    for (int attempt = 0;; ++attempt) {
      if (attempt == 200) return 11;
      auto base = (*catalog)->LoadTable(id);
      if (!base) return 12;
      const auto& metadata = base->metadata;
      // A metadata-only snapshot: no data files; the manifest list is never read by the
      // server or by this test.
      iceberg::Snapshot snapshot{
          .snapshot_id = metadata.NewSnapshotId(),
          .parent_snapshot_id = metadata.current_snapshot_id,
          .sequence_number = metadata.NextSequenceNumber(),
          .timestamp_ms = iceberg::NowMs(),
          .manifest_list = metadata.location + "/metadata/snap-w" + std::to_string(worker) + "-" +
                           std::to_string(i) + ".avro",
          .summary = {{"operation", "append"},
                      {"databox.worker", std::to_string(worker) + "-" + std::to_string(i)}},
          .schema_id = metadata.current_schema_id};
      iceberg::TableCommit commit{
          .identifier = id,
          .requirements = {iceberg::AssertTableUuid{metadata.table_uuid},
                           iceberg::AssertRefSnapshotId{"main", metadata.current_snapshot_id}},
          .updates = {
              iceberg::AddSnapshot{snapshot},
              iceberg::SetSnapshotRef{"main", iceberg::SnapshotRef::Branch(snapshot.snapshot_id)}}};
      auto result = (*catalog)->CommitTable(commit);
      if (result) break;
      if (result.error().kind != ErrorKind::kConflict) {
        std::fprintf(stderr, "worker %d: %s\n", worker, result.error().ToString().c_str());
        return 13;
      }
    }
  }
  return 0;
}

TEST_F(RestCatalogIntegrationTest, FourProcessesCommitToOneTable) {
  constexpr int kWorkers = 4;
  constexpr int kCommitsEach = 5;
  const iceberg::TableIdentifier id{{"stress_" + Unique()}, "commits"};
  CreateBirds(id);
  RestCatalogOptions options;
  options.name = "fallback";
  options.uri = env_["CATALOG_URI"];
  options.warehouse = env_["CATALOG_WAREHOUSE"];

  std::vector<pid_t> children;
  for (int w = 0; w < kWorkers; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) ::_exit(CommitWorker(options, id, w, kCommitsEach));
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "worker exit status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  auto final_table = catalog_->LoadTable(id);
  ASSERT_TRUE(final_table.has_value()) << final_table.error().ToString();
  const auto& metadata = final_table->metadata;
  EXPECT_EQ(metadata.snapshots.size(), static_cast<size_t>(kWorkers * kCommitsEach));
  EXPECT_EQ(metadata.last_sequence_number, kWorkers * kCommitsEach);
  std::set<std::string> seen;
  for (const auto& snapshot : metadata.snapshots)
    seen.insert(snapshot.summary.at("databox.worker"));
  EXPECT_EQ(seen.size(), static_cast<size_t>(kWorkers * kCommitsEach));
  // The history is one chain: every snapshot's parent is the one before it.
  int chain = 0;
  for (const auto* s = metadata.CurrentSnapshot(); s != nullptr;
       s = s->parent_snapshot_id ? metadata.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    ++chain;
  }
  EXPECT_EQ(chain, kWorkers * kCommitsEach);
}

}  // namespace
}  // namespace databox::catalog::rest
