#include "catalog/rest/rest_catalog.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/rest/fake_transport_test_support.h"
#include "common/redact.h"
#include "iceberg/metadata/metadata_json.h"
#include "iceberg/metadata/table_update.h"

namespace databox::catalog::rest {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using testing::FakeTransport;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kBase = "http://catalog.test/api/catalog";
constexpr const char* kNs = "/api/catalog/v1/wh/namespaces";
constexpr const char* kConfig = R"({"defaults":{"clients":"1"},"overrides":{"prefix":"wh"}})";

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

//! The fake server's table: metadata as a server would hold it.
iceberg::TableMetadata ServerTable() {
  auto metadata = iceberg::NewTableMetadata(BirdSchema(), {}, {}, "s3://bucket/wh/raw/birds", {});
  EXPECT_TRUE(metadata.has_value());
  return *metadata;
}

std::string LoadResult(const iceberg::TableMetadata& metadata, const std::string& location,
                       json extra = json::object()) {
  json body = {{"metadata-location", location},
               {"metadata", iceberg::TableMetadataToJson(metadata)}};
  body.update(extra);
  return body.dump();
}

std::string ErrorBody(long code, const std::string& type, const std::string& message) {
  return json{{"error", {{"message", message}, {"type", type}, {"code", code}}}}.dump();
}

class RestCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_->On("GET /api/catalog/v1/config?warehouse=lake", 200, kConfig); }

  RestCatalogOptions Options() {
    RestCatalogOptions options;
    options.name = "lake";
    options.uri = kBase;
    options.warehouse = "lake";
    options.http.retry.max_attempts = 1;
    return options;
  }

  std::unique_ptr<RestCatalog> Open(RestCatalogOptions options) {
    auto catalog = RestCatalog::Open(std::move(options), fake_);
    EXPECT_TRUE(catalog.has_value()) << catalog.error().ToString();
    return catalog ? std::move(*catalog) : nullptr;
  }
  std::unique_ptr<RestCatalog> Open() { return Open(Options()); }

  std::shared_ptr<FakeTransport> fake_ = std::make_shared<FakeTransport>();
};

TEST_F(RestCatalogTest, ConfigGivesPrefixAndNoAuthWithoutCredential) {
  auto catalog = Open();
  EXPECT_EQ(catalog->config().prefix, "wh");
  EXPECT_EQ(catalog->config().defaults.at("clients"), "1");
  fake_->On(std::string("HEAD ") + kNs + "/raw", 204);
  EXPECT_TRUE(catalog->NamespaceExists({"raw"}).value());
  for (const auto& request : fake_->requests()) {
    EXPECT_FALSE(request.headers.Contains("Authorization")) << request.url;
  }
}

TEST_F(RestCatalogTest, BearerTokenIsSentOnEveryRequest) {
  auto options = Options();
  options.bearer_token = "tok-123";
  auto catalog = Open(options);
  fake_->On(std::string("HEAD ") + kNs + "/raw", 204);
  EXPECT_TRUE(catalog->NamespaceExists({"raw"}).value());
  ASSERT_GE(fake_->requests().size(), 2u);  // the config and the namespace
  for (const auto& request : fake_->requests()) {
    EXPECT_EQ(request.headers.Get("Authorization"), "Bearer tok-123") << request.url;
  }
  EXPECT_TRUE(fake_->RequestsTo("POST /api/catalog/v1/oauth/tokens").empty());
}

TEST_F(RestCatalogTest, Sigv4SignsEveryRequest) {
  auto options = Options();
  options.sigv4 = http::AwsSigning{.access_key_id = "AKIDEXAMPLE",
                                   .secret_access_key = "secret",
                                   .session_token = "",
                                   .region = "eu-west-1",
                                   .service = "s3tables"};
  auto catalog = Open(options);
  fake_->On(std::string("HEAD ") + kNs + "/raw", 204);
  EXPECT_TRUE(catalog->NamespaceExists({"raw"}).value());
  ASSERT_GE(fake_->requests().size(), 2u);  // the config and the namespace
  for (const auto& request : fake_->requests()) {
    const std::string authorization(request.headers.Get("Authorization").value_or(""));
    EXPECT_TRUE(authorization.starts_with("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"))
        << request.url << ": " << authorization;
    EXPECT_NE(authorization.find("/eu-west-1/s3tables/aws4_request,"), std::string::npos)
        << authorization;
    EXPECT_TRUE(request.headers.Contains("x-amz-date")) << request.url;
    EXPECT_TRUE(request.headers.Contains("x-amz-content-sha256")) << request.url;
  }
}

// Nessie's prefix is "{ref}|{warehouse}", sent already encoded: it goes into paths as sent
// (encoding it again gave "main%257Clake", which Nessie rejects as a reference name).
TEST_F(RestCatalogTest, EncodedPrefixIsUsedAsSent) {
  fake_->On("GET /api/catalog/v1/config?warehouse=nessie", 200,
            R"({"defaults":{"prefix":"main%7Clake"},"overrides":{}})");
  auto options = Options();
  options.warehouse = "nessie";
  auto catalog = Open(options);
  EXPECT_EQ(catalog->config().prefix, "main%7Clake");
  fake_->On("HEAD /api/catalog/v1/main%7Clake/namespaces/raw", 204);
  EXPECT_TRUE(catalog->NamespaceExists({"raw"}).value());
  EXPECT_EQ(fake_->RequestsTo("HEAD /api/catalog/v1/main%7Clake/namespaces/raw").size(), 1u);
}

// Nessie's configuration carries nessie.* settings: it keeps table history in its own commits.
TEST_F(RestCatalogTest, NessieSettingsMeanHistoryOutsideMetadata) {
  EXPECT_FALSE(Open()->KeepsHistoryOutsideMetadata());
  fake_->On("GET /api/catalog/v1/config?warehouse=nessie", 200,
            R"({"defaults":{"prefix":"main%7Clake","nessie.default-branch.name":"main"},)"
            R"("overrides":{}})");
  auto options = Options();
  options.warehouse = "nessie";
  EXPECT_TRUE(Open(options)->KeepsHistoryOutsideMetadata());
}

TEST_F(RestCatalogTest, ConfigFailureIsReported) {
  fake_->On("GET /api/catalog/v1/config?warehouse=other", 404,
            ErrorBody(404, "NotFoundException", "Unable to find warehouse other"));
  auto options = Options();
  options.warehouse = "other";
  auto catalog = RestCatalog::Open(options, fake_);
  ASSERT_FALSE(catalog.has_value());
  EXPECT_EQ(catalog.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(catalog.error().message, HasSubstr("Unable to find warehouse other"));
}

TEST_F(RestCatalogTest, NamespaceLifecycleRequests) {
  auto catalog = Open();
  fake_->On(std::string("POST ") + kNs, 200, R"({"namespace":["raw","ebird"],"properties":{}})");
  ASSERT_TRUE(catalog->CreateNamespace({"raw", "ebird"}, {{"owner", "me"}}).has_value());
  auto create = fake_->RequestsTo(std::string("POST ") + kNs);
  ASSERT_EQ(create.size(), 1u);
  EXPECT_EQ(json::parse(create[0].body),
            json::parse(R"({"namespace":["raw","ebird"],"properties":{"owner":"me"}})"));
  EXPECT_EQ(create[0].headers.Get("Content-Type"), "application/json");

  // Multi-level namespaces are joined by the unit separator, %1F.
  fake_->On(std::string("GET ") + kNs + "/raw%1Febird", 200,
            R"({"namespace":["raw","ebird"],"properties":{"owner":"me","a":"b"}})");
  EXPECT_EQ(catalog->LoadNamespaceProperties({"raw", "ebird"}).value(),
            (iceberg::Properties{{"owner", "me"}, {"a", "b"}}));

  fake_->On(std::string("POST ") + kNs + "/raw%1Febird/properties", 200,
            R"({"updated":["x"],"removed":["a"],"missing":[]})");
  std::vector<std::string> removals{"a", "x"};
  ASSERT_TRUE(catalog->UpdateNamespaceProperties({"raw", "ebird"}, removals, {{"x", "1"}}));
  auto update = fake_->RequestsTo(std::string("POST ") + kNs + "/raw%1Febird/properties");
  ASSERT_EQ(update.size(), 1u);
  // "x" is removed then set: sent as a set only (the spec rejects a key in both lists).
  EXPECT_EQ(json::parse(update[0].body), json::parse(R"({"removals":["a"],"updates":{"x":"1"}})"));

  fake_->On(std::string("DELETE ") + kNs + "/raw%1Febird", 409,
            ErrorBody(409, "NamespaceNotEmptyException", "Namespace raw.ebird is not empty"));
  EXPECT_EQ(catalog->DropNamespace({"raw", "ebird"}).error().kind, ErrorKind::kConflict);
  fake_->On(std::string("DELETE ") + kNs + "/raw%1Febird", 204);
  EXPECT_TRUE(catalog->DropNamespace({"raw", "ebird"}).has_value());
  EXPECT_EQ(catalog->DropNamespace({"gone"}).error().kind, ErrorKind::kNotFound);
}

TEST_F(RestCatalogTest, CreateNamespaceConflictIsAlreadyExists) {
  auto catalog = Open();
  fake_->On(std::string("POST ") + kNs, 409,
            ErrorBody(409, "AlreadyExistsException", "Namespace already exists: raw"));
  auto status = catalog->CreateNamespace({"raw"}, {});
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_THAT(status.error().message, HasSubstr("Namespace already exists: raw"));
}

TEST_F(RestCatalogTest, ListNamespacesFollowsPageTokens) {
  auto catalog = Open();
  fake_->On(std::string("GET ") + kNs + "?parent=raw", 200,
            R"({"namespaces":[["raw","b"],["raw","a"]],"next-page-token":"p 2"})");
  fake_->On(std::string("GET ") + kNs + "?parent=raw&pageToken=p%202", 200,
            R"({"namespaces":[["raw","c"]],"next-page-token":null})");
  auto listed = catalog->ListNamespaces({"raw"});
  ASSERT_TRUE(listed.has_value()) << listed.error().ToString();
  EXPECT_THAT(*listed, ElementsAre(iceberg::Namespace{"raw", "a"}, iceberg::Namespace{"raw", "b"},
                                   iceberg::Namespace{"raw", "c"}));
  EXPECT_EQ(fake_->RequestsTo(std::string("GET ") + kNs).size(), 2u);
}

TEST_F(RestCatalogTest, ListPassesPageSizeAndParentEncoding) {
  auto options = Options();
  options.page_size = 50;
  auto catalog = Open(options);
  fake_->On(std::string("GET ") + kNs + "?parent=a%1Fb&pageSize=50", 200, R"({"namespaces":[]})");
  EXPECT_TRUE(catalog->ListNamespaces({"a", "b"}).value().empty());
}

TEST_F(RestCatalogTest, ExistsUsesGetWhenHeadIsNotAdvertised) {
  fake_ = std::make_shared<FakeTransport>();
  fake_->On("GET /api/catalog/v1/config?warehouse=lake", 200,
            R"({"defaults":{},"overrides":{"prefix":"wh"},)"
            R"("endpoints":["GET /v1/{prefix}/namespaces/{namespace}"]})");
  auto catalog = Open();
  fake_->On(std::string("GET ") + kNs + "/raw", 200, R"({"namespace":["raw"]})");
  EXPECT_TRUE(catalog->NamespaceExists({"raw"}).value());
  EXPECT_FALSE(catalog->NamespaceExists({"nope"}).value());
  EXPECT_TRUE(fake_->RequestsTo(std::string("HEAD ") + kNs + "/raw").empty());
}

TEST_F(RestCatalogTest, RegisterEndpointIsKnownOnlyFromTheAdvertisedList) {
  EXPECT_TRUE(Open()->SupportsEndpoint(RestCatalog::kRegisterEndpoint));  // no list: assumed
  fake_ = std::make_shared<FakeTransport>();
  fake_->On("GET /api/catalog/v1/config?warehouse=lake", 200,
            R"({"defaults":{},"overrides":{"prefix":"wh"},)"
            R"("endpoints":["GET /v1/{prefix}/namespaces/{namespace}"]})");
  EXPECT_FALSE(Open()->SupportsEndpoint(RestCatalog::kRegisterEndpoint));
  fake_ = std::make_shared<FakeTransport>();
  fake_->On("GET /api/catalog/v1/config?warehouse=lake", 200,
            R"({"defaults":{},"overrides":{"prefix":"wh"},)"
            R"("endpoints":["POST /v1/{prefix}/namespaces/{namespace}/register"]})");
  EXPECT_TRUE(Open()->SupportsEndpoint(RestCatalog::kRegisterEndpoint));
}

TEST_F(RestCatalogTest, TablesListExistsLoadWithVendedCredentials) {
  auto catalog = Open();
  fake_->On(std::string("GET ") + kNs + "/raw/tables", 200,
            R"({"identifiers":[{"namespace":["raw"],"name":"z"}],"next-page-token":"t2"})");
  fake_->On(std::string("GET ") + kNs + "/raw/tables?pageToken=t2", 200,
            R"({"identifiers":[{"namespace":["raw"],"name":"birds"}]})");
  EXPECT_EQ(catalog->ListTables({"raw"}).value(),
            (std::vector<iceberg::TableIdentifier>{{{"raw"}, "birds"}, {{"raw"}, "z"}}));

  fake_->On(std::string("HEAD ") + kNs + "/raw/tables/birds", 204);
  EXPECT_TRUE(catalog->TableExists({{"raw"}, "birds"}).value());
  EXPECT_FALSE(catalog->TableExists({{"raw"}, "nope"}).value());

  const auto metadata = ServerTable();
  json extra = {
      {"config",
       {{"s3.access-key-id", "AKIAVENDED"},
        {"s3.secret-access-key", "vendedsecret1"},
        {"s3.session-token", "vendedtoken1"},
        {"client.region", "eu-west-1"},
        {"s3.session-token-expires-at-ms", "1767225600000"}}},
      {"storage-credentials",
       {{{"prefix", "s3://bucket/wh/raw"},
         {"config", {{"s3.access-key-id", "AKIA2"}, {"s3.secret-access-key", "prefixsecret2"}}}}}}};
  fake_->On(std::string("GET ") + kNs + "/raw/tables/birds", 200,
            LoadResult(metadata, "s3://bucket/wh/raw/birds/metadata/00000-a.metadata.json", extra));
  auto loaded = catalog->LoadTable({{"raw"}, "birds"});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, "s3://bucket/wh/raw/birds/metadata/00000-a.metadata.json");
  EXPECT_EQ(loaded->metadata.table_uuid, metadata.table_uuid);
  auto load = fake_->RequestsTo(std::string("GET ") + kNs + "/raw/tables/birds");
  ASSERT_EQ(load.size(), 1u);
  EXPECT_EQ(load[0].headers.Get("X-Iceberg-Access-Delegation"), "vended-credentials");

  auto credentials = catalog->StorageCredentials({{"raw"}, "birds"});
  ASSERT_EQ(credentials.size(), 2u);
  EXPECT_EQ(credentials[0].prefix, "s3://bucket/wh/raw");
  EXPECT_EQ(credentials[0].config.at("s3.access-key-id"), "AKIA2");
  EXPECT_EQ(credentials[1].prefix, "s3://bucket/wh/raw/birds");
  EXPECT_EQ(credentials[1].config.at("s3.session-token"), "vendedtoken1");
  EXPECT_EQ(credentials[1].config.at("client.region"), "eu-west-1");
  EXPECT_EQ(credentials[1].expires_at_ms, 1767225600000);
  EXPECT_EQ(FindCredential(credentials, "s3://bucket/wh/raw/birds/data/x.parquet")->prefix,
            "s3://bucket/wh/raw/birds");
  EXPECT_EQ(Redact("key vendedsecret1 and vendedtoken1"), "key *** and ***");
  EXPECT_TRUE(catalog->StorageCredentials({{"raw"}, "other"}).empty());
}

// Storage learns what each load and (stage-)create vended, also that nothing was vended.
TEST_F(RestCatalogTest, TellsTheListenerWhatEveryLoadAndCreateVended) {
  struct Told {
    std::string table, location;
    std::vector<StorageCredential> credentials;
  };
  std::vector<Told> told;
  auto options = Options();
  options.on_credentials = [&](const iceberg::TableIdentifier& table, const std::string& location,
                               const std::vector<StorageCredential>& credentials) {
    told.push_back({table.ToString(), location, credentials});
  };
  auto catalog = Open(options);
  const auto metadata = ServerTable();
  json vended = {{"storage-credentials",
                  {{{"prefix", "s3://bucket/wh/raw/birds"},
                    {"config",
                     {{"s3.access-key-id", "AKIA3"},
                      {"s3.secret-access-key", "listenersecret3"},
                      {"s3.session-token", "listenertoken3"},
                      {"s3.session-token-expires-at-ms", "1767225600000"}}}}}}};
  fake_->On(
      std::string("GET ") + kNs + "/raw/tables/birds", 200,
      LoadResult(metadata, "s3://bucket/wh/raw/birds/metadata/00000-a.metadata.json", vended));
  fake_->On(std::string("POST ") + kNs + "/raw/tables", 200,
            LoadResult(metadata, "s3://bucket/wh/raw/birds/metadata/00000-a.metadata.json"));
  ASSERT_TRUE(catalog->LoadTable({{"raw"}, "birds"}).has_value());
  ASSERT_TRUE(catalog->StageCreateTable({{"raw"}, "birds"}, BirdSchema(), {}, {}, {}, {}));
  ASSERT_EQ(told.size(), 2u);
  EXPECT_EQ(told[0].table, "raw.birds");
  EXPECT_EQ(told[0].location, "s3://bucket/wh/raw/birds");
  ASSERT_EQ(told[0].credentials.size(), 1u);
  EXPECT_EQ(told[0].credentials[0].config.at("s3.session-token"), "listenertoken3");
  EXPECT_EQ(told[0].credentials[0].expires_at_ms, 1767225600000);
  EXPECT_EQ(told[1].location, "s3://bucket/wh/raw/birds");
  EXPECT_TRUE(told[1].credentials.empty());
  EXPECT_EQ(Redact("listenersecret3 listenertoken3"), "*** ***");
}

TEST_F(RestCatalogTest, CreateAndStageCreateRequests) {
  auto catalog = Open();
  const auto metadata = ServerTable();
  fake_->On(std::string("POST ") + kNs + "/raw/tables", 200,
            LoadResult(metadata, "s3://bucket/wh/raw/birds/metadata/00000-a.metadata.json"));
  auto created = catalog->CreateTable({{"raw"}, "birds"}, BirdSchema(), {}, {}, {{"k", "v"}},
                                      "s3://bucket/custom");
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  EXPECT_EQ(created->metadata.location, "s3://bucket/wh/raw/birds");
  auto staged = catalog->StageCreateTable({{"raw"}, "birds"}, BirdSchema(), {}, {}, {}, {});
  ASSERT_TRUE(staged.has_value());

  auto posts = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables");
  ASSERT_EQ(posts.size(), 2u);
  json first = json::parse(posts[0].body);
  EXPECT_EQ(first["name"], "birds");
  EXPECT_EQ(first["stage-create"], false);
  EXPECT_EQ(first["location"], "s3://bucket/custom");
  EXPECT_EQ(first["properties"], json::parse(R"({"k":"v"})"));
  EXPECT_EQ(first["schema"]["fields"][0]["name"], "id");
  EXPECT_EQ(first["schema"]["fields"][1]["type"], "string");
  EXPECT_EQ(first["partition-spec"]["fields"], json::array());
  EXPECT_EQ(first["write-order"]["fields"], json::array());
  json second = json::parse(posts[1].body);
  EXPECT_EQ(second["stage-create"], true);
  EXPECT_FALSE(second.contains("location"));
  EXPECT_EQ(posts[0].headers.Get("X-Iceberg-Access-Delegation"), "vended-credentials");

  fake_->On(std::string("POST ") + kNs + "/raw/tables", 409,
            ErrorBody(409, "AlreadyExistsException", "Table already exists: raw.birds"));
  EXPECT_EQ(catalog->CreateTable({{"raw"}, "birds"}, BirdSchema(), {}, {}, {}, {}).error().kind,
            ErrorKind::kAlreadyExists);
}

TEST_F(RestCatalogTest, PrepareCreateTableIsAStageCreateAtTheServersLocation) {
  auto catalog = Open();
  fake_->On(std::string("POST ") + kNs + "/raw/tables", 200,
            LoadResult(ServerTable(), "s3://bucket/wh/raw/birds/metadata/00000-a.metadata.json"));
  auto prepared = catalog->PrepareCreateTable({{"raw"}, "birds"}, BirdSchema(), {}, {}, {});
  ASSERT_TRUE(prepared.has_value()) << prepared.error().ToString();
  EXPECT_EQ(prepared->location, "s3://bucket/wh/raw/birds");
  auto posts = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables");
  ASSERT_EQ(posts.size(), 1u);
  json body = json::parse(posts[0].body);
  EXPECT_EQ(body["stage-create"], true);
  EXPECT_FALSE(body.contains("location"));
  // Whether transactions can create tables is learned from the server's answer.
  EXPECT_TRUE(catalog->TransactionsCreateTables());
}

TEST_F(RestCatalogTest, CommitSendsRequirementsAndUpdates) {
  auto catalog = Open();
  auto metadata = ServerTable();
  metadata.properties["loaded"] = "1";
  fake_->On(std::string("POST ") + kNs + "/raw/tables/birds", 200,
            LoadResult(metadata, "s3://bucket/wh/raw/birds/metadata/00001-b.metadata.json"));
  iceberg::TableCommit commit{
      .identifier = {{"raw"}, "birds"},
      .requirements = {iceberg::AssertTableUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
                       iceberg::AssertRefSnapshotId{"main", std::nullopt}},
      .updates = {iceberg::SetProperties{{{"loaded", "1"}}}}};
  auto committed = catalog->CommitTable(commit);
  ASSERT_TRUE(committed.has_value()) << committed.error().ToString();
  EXPECT_EQ(committed->metadata_location,
            "s3://bucket/wh/raw/birds/metadata/00001-b.metadata.json");
  EXPECT_EQ(committed->metadata.properties.at("loaded"), "1");
  auto sent = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables/birds");
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(json::parse(sent[0].body), json::parse(R"({
    "identifier": {"namespace": ["raw"], "name": "birds"},
    "requirements": [
      {"type": "assert-table-uuid", "uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1"},
      {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": null}],
    "updates": [{"action": "set-properties", "updates": {"loaded": "1"}}]})"));
}

TEST_F(RestCatalogTest, StagedCreateCommitsWithAssertCreate) {
  auto catalog = Open();
  const auto metadata = ServerTable();
  fake_->On(std::string("POST ") + kNs + "/raw/tables/birds", 200,
            LoadResult(metadata, "s3://bucket/wh/raw/birds/metadata/00000-c.metadata.json"));
  iceberg::TableCommit commit{.identifier = {{"raw"}, "birds"},
                              .requirements = {iceberg::AssertCreate{}},
                              .updates = iceberg::CreateTableUpdates(metadata)};
  ASSERT_TRUE(catalog->CommitTable(commit).has_value());
  auto sent = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables/birds");
  ASSERT_EQ(sent.size(), 1u);
  json body = json::parse(sent[0].body);
  EXPECT_EQ(body["requirements"], json::parse(R"([{"type":"assert-create"}])"));
  EXPECT_EQ(body["updates"][0]["action"], "assign-uuid");
  EXPECT_EQ(body["updates"][0]["uuid"], metadata.table_uuid);
}

struct CommitOutcome {
  long status;
  std::string body;
  ErrorKind kind;
};

class CommitErrorTest : public RestCatalogTest,
                        public ::testing::WithParamInterface<CommitOutcome> {};

TEST_P(CommitErrorTest, MapsStatusAndNeverResends) {
  auto catalog = Open();
  fake_->On(std::string("POST ") + kNs + "/raw/tables/birds", GetParam().status, GetParam().body);
  iceberg::TableCommit commit{.identifier = {{"raw"}, "birds"},
                              .requirements = {iceberg::AssertTableUuid{"u"}},
                              .updates = {iceberg::SetProperties{{{"a", "1"}}}}};
  auto options = Options();
  auto result = catalog->CommitTable(commit);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind, GetParam().kind) << result.error().ToString();
  EXPECT_THAT(result.error().message, HasSubstr("raw.birds"));
  EXPECT_EQ(fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables/birds").size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Statuses, CommitErrorTest,
    ::testing::Values(
        CommitOutcome{
            409,
            ErrorBody(409, "CommitFailedException", "Requirement failed: branch main has changed"),
            ErrorKind::kConflict},
        // Polaris <= 1.7.0 leaks a lost race as a 400 ValidationException.
        CommitOutcome{400,
                      ErrorBody(400, "ValidationException",
                                "Cannot add snapshot with sequence number 5 older than last "
                                "sequence number 5"),
                      ErrorKind::kConflict},
        CommitOutcome{400, ErrorBody(400, "RetryableValidationException", "Branch main changed"),
                      ErrorKind::kConflict},
        CommitOutcome{400, ErrorBody(400, "BadRequestException", "Unknown update action: x"),
                      ErrorKind::kData},
        CommitOutcome{500, ErrorBody(500, "CommitStateUnknownException", "db timeout"),
                      ErrorKind::kCommitStateUnknown},
        CommitOutcome{502, "<html>bad gateway</html>", ErrorKind::kCommitStateUnknown},
        CommitOutcome{504, "", ErrorKind::kCommitStateUnknown},
        CommitOutcome{404, ErrorBody(404, "NoSuchTableException", "Table does not exist"),
                      ErrorKind::kNotFound},
        CommitOutcome{403, ErrorBody(403, "ForbiddenException", "not allowed"), ErrorKind::kAuth}));

TEST_F(RestCatalogTest, CommitTransportFailureIsUnknownAndNotResent) {
  auto catalog = Open();
  fake_->On(std::string("POST ") + kNs + "/raw/tables/birds",
            FakeTransport::Answer(MakeError(ErrorKind::kNetwork, "operation timed out")));
  auto options = Options();
  iceberg::TableCommit commit{.identifier = {{"raw"}, "birds"}, .requirements = {}, .updates = {}};
  // The default client retries idempotent requests; the commit must still go out once.
  auto retrying = RestCatalog::Open(
      [] {
        RestCatalogOptions o;
        o.name = "lake";
        o.uri = kBase;
        o.warehouse = "lake";
        o.http.retry.max_attempts = 3;
        o.http.retry.base_delay = std::chrono::milliseconds(1);
        return o;
      }(),
      fake_);
  ASSERT_TRUE(retrying.has_value());
  auto result = (*retrying)->CommitTable(commit);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitStateUnknown);
  EXPECT_EQ(fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables/birds").size(), 1u);
}

TEST_F(RestCatalogTest, TransactionCommitPostsAllChangesThenReloads) {
  auto catalog = Open();
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 204);
  auto a = ServerTable();
  auto b = ServerTable();
  fake_->On(std::string("GET ") + kNs + "/raw/tables/a", 200, LoadResult(a, "s3://x/a.json"));
  fake_->On(std::string("GET ") + kNs + "/raw/tables/b", 200, LoadResult(b, "s3://x/b.json"));
  std::vector<iceberg::TableCommit> commits{
      {.identifier = {{"raw"}, "a"},
       .requirements = {iceberg::AssertTableUuid{a.table_uuid}},
       .updates = {iceberg::SetProperties{{{"x", "1"}}}}},
      {.identifier = {{"raw"}, "b"},
       .requirements = {},
       .updates = {iceberg::RemoveProperties{{"y"}}}}};
  auto results = catalog->CommitTransaction(commits);
  ASSERT_TRUE(results.has_value()) << results.error().ToString();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[0].metadata_location, "s3://x/a.json");
  EXPECT_EQ((*results)[1].metadata_location, "s3://x/b.json");
  auto sent = fake_->RequestsTo("POST /api/catalog/v1/wh/transactions/commit");
  ASSERT_EQ(sent.size(), 1u);
  json body = json::parse(sent[0].body);
  ASSERT_EQ(body["table-changes"].size(), 2u);
  EXPECT_EQ(body["table-changes"][0]["identifier"],
            json::parse(R"({"namespace":["raw"],"name":"a"})"));
  EXPECT_EQ(body["table-changes"][1]["updates"],
            json::parse(R"([{"action":"remove-properties","removals":["y"]}])"));

  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 409,
            ErrorBody(409, "CommitFailedException", "Requirement failed: table uuid changed"));
  EXPECT_EQ(catalog->CommitTransaction(commits).error().kind, ErrorKind::kConflict);
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 503, "");
  EXPECT_EQ(catalog->CommitTransaction(commits).error().kind, ErrorKind::kCommitStateUnknown);
}

TEST_F(RestCatalogTest, TellsTheListenerWhatEveryAcceptedCommitCreateAndRegisterCommitted) {
  std::vector<std::vector<std::string>> told;  // per call: "table=metadata location"
  auto options = Options();
  options.on_committed = [&](std::span<const iceberg::TablePointer> committed) {
    told.emplace_back();
    for (const auto& t : committed) {
      told.back().push_back(t.table.ToString() + "=" + t.metadata_location);
    }
  };
  auto catalog = Open(options);
  const auto metadata = ServerTable();
  fake_->On(std::string("POST ") + kNs + "/raw/tables", 200,
            LoadResult(metadata, "s3://x/created.json"));
  ASSERT_TRUE(catalog->StageCreateTable({{"raw"}, "birds"}, BirdSchema(), {}, {}, {}, {}));
  EXPECT_TRUE(told.empty()) << "a staged create commits nothing";
  ASSERT_TRUE(catalog->CreateTable({{"raw"}, "birds"}, BirdSchema(), {}, {}, {}, {}));
  fake_->On(std::string("POST ") + kNs + "/raw/tables/birds", 200,
            LoadResult(metadata, "s3://x/committed.json"));
  const iceberg::TableCommit commit{.identifier = {{"raw"}, "birds"},
                                    .requirements = {},
                                    .updates = {iceberg::SetProperties{{{"x", "1"}}}}};
  ASSERT_TRUE(catalog->CommitTable(commit));
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 204);
  fake_->On(std::string("GET ") + kNs + "/raw/tables/a", 200,
            LoadResult(metadata, "s3://x/a.json"));
  fake_->On(std::string("GET ") + kNs + "/raw/tables/b", 200,
            LoadResult(metadata, "s3://x/b.json"));
  const std::vector<iceberg::TableCommit> both{
      {.identifier = {{"raw"}, "a"}, .requirements = {}, .updates = {}},
      {.identifier = {{"raw"}, "b"}, .requirements = {}, .updates = {}}};
  ASSERT_TRUE(catalog->CommitTransaction(both));
  fake_->On(std::string("POST ") + kNs + "/raw/register", 200,
            LoadResult(metadata, "s3://x/registered.json"));
  ASSERT_TRUE(catalog->RegisterTable({{"raw"}, "old"}, "s3://x/registered.json"));
  // Refused commits tell nothing.
  fake_->On(std::string("POST ") + kNs + "/raw/tables/birds", 409,
            ErrorBody(409, "CommitFailedException", "Requirement failed"));
  EXPECT_FALSE(catalog->CommitTable(commit));
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 409,
            ErrorBody(409, "CommitFailedException", "Requirement failed"));
  EXPECT_FALSE(catalog->CommitTransaction(both));
  const std::vector<std::vector<std::string>> want{{"raw.birds=s3://x/created.json"},
                                                   {"raw.birds=s3://x/committed.json"},
                                                   {"raw.a=s3://x/a.json", "raw.b=s3://x/b.json"},
                                                   {"raw.old=s3://x/registered.json"}};
  EXPECT_EQ(told, want);
}

// A transaction with a staged create (assert-create) beside another table's change.
std::vector<iceberg::TableCommit> CreatingTransaction(const iceberg::TableMetadata& existing) {
  return {{.identifier = {{"raw"}, "a"},
           .requirements = {iceberg::AssertTableUuid{existing.table_uuid}},
           .updates = {iceberg::SetProperties{{{"x", "1"}}}}},
          {.identifier = {{"raw"}, "new_table"},
           .requirements = {iceberg::AssertCreate{}},
           .updates = {iceberg::SetProperties{{{"y", "2"}}}}}};
}

TEST_F(RestCatalogTest, TransactionThatCreatesIsTriedAndRefusalIsRemembered) {
  // The reference adapter loads every table of a transaction first: 404 for the new one.
  auto catalog = Open();
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 404,
            ErrorBody(404, "NoSuchTableException", "Table does not exist: raw.new_table"));
  ASSERT_TRUE(catalog->TransactionsCreateTables());
  auto result = catalog->CommitTransaction(CreatingTransaction(ServerTable()));
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(result.error().message, HasSubstr("does not create tables inside a transaction"));
  EXPECT_FALSE(catalog->TransactionsCreateTables());

  // Polaris rejects the staged create with 400.
  auto polaris = Open();
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 400,
            ErrorBody(400, "BadRequestException", "Unsupported update in transaction"));
  EXPECT_EQ(polaris->CommitTransaction(CreatingTransaction(ServerTable())).error().kind,
            ErrorKind::kConfig);
  EXPECT_FALSE(polaris->TransactionsCreateTables());
}

TEST_F(RestCatalogTest, OtherTransactionFailuresDoNotTurnCreatesOff) {
  auto catalog = Open();
  // A lost race or a server failure is not a refusal of the transaction's shape.
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 409,
            ErrorBody(409, "CommitFailedException", "Requirement failed: table already exists"));
  EXPECT_EQ(catalog->CommitTransaction(CreatingTransaction(ServerTable())).error().kind,
            ErrorKind::kConflict);
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 503, "");
  EXPECT_EQ(catalog->CommitTransaction(CreatingTransaction(ServerTable())).error().kind,
            ErrorKind::kCommitStateUnknown);
  // Nor is a 404 to a transaction that creates nothing (a table dropped meanwhile).
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 404,
            ErrorBody(404, "NoSuchTableException", "Table does not exist: raw.a"));
  std::vector<iceberg::TableCommit> existing_only{CreatingTransaction(ServerTable()).front()};
  EXPECT_EQ(catalog->CommitTransaction(existing_only).error().kind, ErrorKind::kNotFound);
  EXPECT_TRUE(catalog->TransactionsCreateTables());
}

TEST_F(RestCatalogTest, TransactionCommittedButReloadFailedIsUnknown) {
  auto catalog = Open();
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 204);
  std::vector<iceberg::TableCommit> commits{
      {.identifier = {{"raw"}, "a"}, .requirements = {}, .updates = {}}};
  auto result = catalog->CommitTransaction(commits);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind, ErrorKind::kCommitStateUnknown);
  EXPECT_THAT(result.error().message, HasSubstr("was committed"));
}

TEST_F(RestCatalogTest, DropRenameRegisterRequests) {
  auto catalog = Open();
  fake_->On(std::string("DELETE ") + kNs + "/raw/tables/birds?purgeRequested=false", 204);
  EXPECT_TRUE(catalog->DropTable({{"raw"}, "birds"}).has_value());
  EXPECT_EQ(catalog->DropTable({{"raw"}, "gone"}).error().kind, ErrorKind::kNotFound);

  fake_->On("POST /api/catalog/v1/wh/tables/rename", 204);
  ASSERT_TRUE(catalog->RenameTable({{"raw"}, "a"}, {{"raw", "x"}, "b"}).has_value());
  auto rename = fake_->RequestsTo("POST /api/catalog/v1/wh/tables/rename");
  ASSERT_EQ(rename.size(), 1u);
  EXPECT_EQ(json::parse(rename[0].body), json::parse(R"({
    "source": {"namespace": ["raw"], "name": "a"},
    "destination": {"namespace": ["raw", "x"], "name": "b"}})"));
  fake_->On("POST /api/catalog/v1/wh/tables/rename", 409,
            ErrorBody(409, "AlreadyExistsException", "Table already exists"));
  EXPECT_EQ(catalog->RenameTable({{"raw"}, "a"}, {{"raw"}, "b"}).error().kind,
            ErrorKind::kAlreadyExists);

  fake_->On(std::string("POST ") + kNs + "/raw/register", 200,
            LoadResult(ServerTable(), "s3://bucket/m.json"));
  auto registered = catalog->RegisterTable({{"raw"}, "birds"}, "s3://bucket/m.json");
  ASSERT_TRUE(registered.has_value()) << registered.error().ToString();
  auto reg = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/register");
  ASSERT_EQ(reg.size(), 1u);
  EXPECT_EQ(json::parse(reg[0].body),
            json::parse(R"({"name":"birds","metadata-location":"s3://bucket/m.json"})"));
}

// SeaweedFS's catalog (and AWS S3 Tables) refuse table names that do not start with a letter or
// digit; with an underscore prefix the catalog maps databox's _... names at its boundary.
constexpr const char* kNameRefusal =
    "all filers failed, last error: table name must start with a letter or digit";

RestCatalogOptions WithPrefix(RestCatalogOptions options, const std::string& prefix) {
  auto names = iceberg::TableNames::Make(prefix);
  EXPECT_TRUE(names.has_value());
  options.table_names = *names;
  return options;
}

TEST_F(RestCatalogTest, UnderscorePrefixNamesTablesOnTheServerAndReadsThemBack) {
  auto catalog = Open(WithPrefix(Options(), "dbx"));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->table_names().underscore_prefix(), "dbx");
  fake_->On(std::string("GET ") + kNs + "/raw/tables", 200,
            R"({"identifiers":[{"namespace":["raw"],"name":"dbx_dlt_loads"},
                               {"namespace":["raw"],"name":"events"}]})");
  EXPECT_EQ(catalog->ListTables({"raw"}).value(),
            (std::vector<iceberg::TableIdentifier>{{{"raw"}, "_dlt_loads"}, {{"raw"}, "events"}}));

  fake_->On(std::string("HEAD ") + kNs + "/raw/tables/dbx_dlt_loads", 204);
  EXPECT_TRUE(catalog->TableExists({{"raw"}, "_dlt_loads"}).value());
  const auto metadata = ServerTable();
  fake_->On(std::string("GET ") + kNs + "/raw/tables/dbx_dlt_loads", 200,
            LoadResult(metadata, "s3://bucket/wh/raw/dbx_dlt_loads/metadata/1.metadata.json"));
  auto loaded = catalog->LoadTable({{"raw"}, "_dlt_loads"});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();

  // Create and stage-create send the server's name; the answer belongs to databox's table.
  fake_->On(std::string("POST ") + kNs + "/raw/tables", 200, LoadResult(metadata, ""));
  ASSERT_TRUE(catalog->PrepareCreateTable({{"raw"}, "_dlt_load_status"}, BirdSchema(), {}, {}, {})
                  .has_value());
  auto creates = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables");
  ASSERT_EQ(creates.size(), 1u);
  EXPECT_EQ(json::parse(creates[0].body)["name"], "dbx_dlt_load_status");

  // A commit goes to the server's path with the server's identifier.
  fake_->On(std::string("POST ") + kNs + "/raw/tables/dbx_dlt_load_status", 200,
            LoadResult(metadata, "s3://x/1.json"));
  iceberg::TableCommit commit{.identifier = {{"raw"}, "_dlt_load_status"},
                              .requirements = {iceberg::AssertCreate{}},
                              .updates = {}};
  ASSERT_TRUE(catalog->CommitTable(commit).has_value());
  auto sent = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/tables/dbx_dlt_load_status");
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(json::parse(sent[0].body)["identifier"]["name"], "dbx_dlt_load_status");

  // A transaction names every table as the server knows it; results are reloaded by them too.
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 204);
  fake_->On(std::string("GET ") + kNs + "/raw/tables/events", 200, LoadResult(metadata, "e"));
  std::vector<iceberg::TableCommit> both{
      {.identifier = {{"raw"}, "_dlt_loads"}, .requirements = {}, .updates = {}},
      {.identifier = {{"raw"}, "events"}, .requirements = {}, .updates = {}}};
  ASSERT_TRUE(catalog->CommitTransaction(both).has_value());
  auto tx = fake_->RequestsTo("POST /api/catalog/v1/wh/transactions/commit");
  ASSERT_EQ(tx.size(), 1u);
  json changes = json::parse(tx[0].body)["table-changes"];
  EXPECT_EQ(changes[0]["identifier"]["name"], "dbx_dlt_loads");
  EXPECT_EQ(changes[1]["identifier"]["name"], "events");

  // Register, rename and drop.
  fake_->On(std::string("POST ") + kNs + "/raw/register", 200, LoadResult(metadata, "s3://m"));
  ASSERT_TRUE(catalog->RegisterTable({{"raw"}, "_dlt_loads"}, "s3://m").has_value());
  auto reg = fake_->RequestsTo(std::string("POST ") + kNs + "/raw/register");
  ASSERT_EQ(reg.size(), 1u);
  EXPECT_EQ(json::parse(reg[0].body)["name"], "dbx_dlt_loads");
  fake_->On("POST /api/catalog/v1/wh/tables/rename", 204);
  ASSERT_TRUE(catalog->RenameTable({{"raw"}, "_a"}, {{"raw"}, "b"}).has_value());
  auto rename = fake_->RequestsTo("POST /api/catalog/v1/wh/tables/rename");
  ASSERT_EQ(rename.size(), 1u);
  EXPECT_EQ(json::parse(rename[0].body)["source"]["name"], "dbx_a");
  EXPECT_EQ(json::parse(rename[0].body)["destination"]["name"], "b");
  fake_->On(std::string("DELETE ") + kNs + "/raw/tables/dbx_dlt_loads?purgeRequested=false", 204);
  EXPECT_TRUE(catalog->DropTable({{"raw"}, "_dlt_loads"}).has_value());
}

TEST_F(RestCatalogTest, UnderscorePrefixRefusesReservedNamesBeforeSending) {
  auto catalog = Open(WithPrefix(Options(), "dbx"));
  ASSERT_NE(catalog, nullptr);
  const auto before = fake_->requests().size();
  auto load = catalog->LoadTable({{"raw"}, "dbx_dlt_loads"});
  ASSERT_FALSE(load.has_value());
  EXPECT_EQ(load.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(load.error().message, HasSubstr("'dbx_dlt_loads' is reserved"));
  EXPECT_EQ(catalog->TableExists({{"raw"}, "dbx_x"}).error().kind, ErrorKind::kConfig);
  std::vector<iceberg::TableCommit> reserved{
      {.identifier = {{"raw"}, "dbx_x"}, .requirements = {}, .updates = {}}};
  EXPECT_EQ(catalog->CommitTransaction(reserved).error().kind, ErrorKind::kConfig);
  EXPECT_EQ(catalog->RegisterTable({{"raw"}, "dbx_x"}, "s3://m").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(fake_->requests().size(), before);
}

TEST_F(RestCatalogTest, ServerRefusingUnderscoreNamesSaysWhichSettingMapsThem) {
  auto catalog = Open();
  // HEAD answers carry no body: a 400 to a name starting with '_' is taken as the refusal.
  fake_->On(std::string("HEAD ") + kNs + "/raw/tables/_dlt_loads", 400);
  auto exists = catalog->TableExists({{"raw"}, "_dlt_loads"});
  ASSERT_FALSE(exists.has_value());
  EXPECT_EQ(exists.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(exists.error().message, HasSubstr("underscore_table_prefix = \"dbx\""));
  EXPECT_THAT(exists.error().message, HasSubstr("_dlt_loads as dbx_dlt_loads"));

  fake_->On(std::string("POST ") + kNs + "/raw/tables", 400,
            ErrorBody(400, "BadRequestException", kNameRefusal));
  auto create = catalog->PrepareCreateTable({{"raw"}, "_dlt_loads"}, BirdSchema(), {}, {}, {});
  ASSERT_FALSE(create.has_value());
  EXPECT_EQ(create.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(create.error().message, HasSubstr("must start with a letter or digit"));
  EXPECT_THAT(create.error().message, HasSubstr("underscore_table_prefix"));

  // In a transaction the refusal is told apart from a refusal of creates by its reason, and
  // leaves TransactionsCreateTables alone.
  fake_->On("POST /api/catalog/v1/wh/transactions/commit", 400,
            ErrorBody(400, "BadRequestException", kNameRefusal));
  std::vector<iceberg::TableCommit> commits{
      {.identifier = {{"raw"}, "events"}, .requirements = {}, .updates = {}},
      {.identifier = {{"raw"}, "_dlt_loads"},
       .requirements = {iceberg::AssertCreate{}},
       .updates = {}}};
  auto tx = catalog->CommitTransaction(commits);
  ASSERT_FALSE(tx.has_value());
  EXPECT_EQ(tx.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(tx.error().message, HasSubstr("underscore_table_prefix"));
  EXPECT_TRUE(catalog->TransactionsCreateTables());

  // Other 400s, and names that do not start with '_', are left as they are.
  fake_->On(std::string("GET ") + kNs + "/raw/tables/events", 400,
            ErrorBody(400, "BadRequestException", "malformed request"));
  EXPECT_EQ(catalog->LoadTable({{"raw"}, "events"}).error().kind, ErrorKind::kData);
  fake_->On(std::string("GET ") + kNs + "/raw/tables/_x", 400,
            ErrorBody(400, "BadRequestException", "malformed request"));
  EXPECT_EQ(catalog->LoadTable({{"raw"}, "_x"}).error().kind, ErrorKind::kData);
  // With a prefix the server never sees a name starting with '_', so nothing is explained.
  auto mapped = Open(WithPrefix(Options(), "dbx"));
  fake_->On(std::string("HEAD ") + kNs + "/raw/tables/dbx_dlt_loads", 400);
  EXPECT_EQ(mapped->TableExists({{"raw"}, "_dlt_loads"}).error().kind, ErrorKind::kData);
}

TEST_F(RestCatalogTest, InvalidIdentifiersAreRejectedBeforeSending) {
  auto catalog = Open();
  const auto before = fake_->requests().size();
  EXPECT_EQ(catalog->LoadTable({{}, "t"}).error().kind, ErrorKind::kConfig);
  EXPECT_EQ(catalog->CreateNamespace({""}, {}).error().kind, ErrorKind::kConfig);
  EXPECT_EQ(fake_->requests().size(), before);
}

TEST_F(RestCatalogTest, MalformedAnswerIsDataError) {
  auto catalog = Open();
  fake_->On(std::string("GET ") + kNs + "/raw/tables/birds", 200, "not json");
  EXPECT_EQ(catalog->LoadTable({{"raw"}, "birds"}).error().kind, ErrorKind::kData);
}

}  // namespace
}  // namespace databox::catalog::rest
