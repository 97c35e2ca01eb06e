#include "registry/registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "common/encoding.h"
#include "common/redact.h"
#include "common/test_paths.h"
#include "registry/format.h"
#include "registry/validation_notes.h"

namespace databox::registry {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::filesystem::path kExample =
    std::filesystem::path(test_paths::SourceDir()) / "examples/databox/databox.toml";

//! An environment with no variables at all.
std::optional<std::string> NoEnv(const std::string&) { return std::nullopt; }

//! A temporary folder holding one databox.toml (and optionally a .env).
class TempConfig {
 public:
  explicit TempConfig(const std::string& toml) {
    char pattern[] = "/tmp/registry_test_XXXXXX";
    dir_ = mkdtemp(pattern);
    Write("databox.toml", toml);
  }
  ~TempConfig() { std::filesystem::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }
  std::filesystem::path path() const { return dir_ / "databox.toml"; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

//! A valid minimal source, appended to test-specific text.
const char kMinimalSource[] = R"(
[[source]]
name = "quakes"
eligibility = "routine"
base_url = "https://example.org/feed.json"

[[source.resource]]
name = "events"
records_path = "features"
primary_key = ["id"]
write_disposition = "merge"
)";

//! True if some problem is on `line` and its message contains `text`.
bool HasProblem(const ValidationReport& report, int line, const std::string& text) {
  for (const Problem& p : report.problems) {
    if (p.line == line && p.message.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(RegistryExampleTest, LoadsWithoutAnyEnvironmentInReplayMode) {
  auto registry = LoadRegistry(kExample, {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_TRUE(registry->replay());
  EXPECT_EQ(registry->sources.size(), 8u);
  std::vector<std::string> routine;
  for (const Source* s : registry->RoutineSources()) routine.push_back(s->name);
  EXPECT_THAT(routine, ::testing::ElementsAre("ebird", "noaa", "usgs", "usgs_earthquakes", "gbif",
                                              "xeno_canto"));
  EXPECT_EQ(registry->FindSource("avonet")->eligibility, Eligibility::kExplicit);
  EXPECT_EQ(registry->FindSource("usfws")->kind, SourceKind::kTargeted);
  EXPECT_EQ(registry->FindSource("nope"), nullptr);
  EXPECT_THAT(
      registry->FindSource("ebird")->Tables(),
      ::testing::IsSupersetOf({"taxonomy", "taxonomy__banding_codes", "taxonomy__com_name_codes",
                               "taxonomy__sci_name_codes", "region_stats"}));
  const Source* ebird = registry->FindSource("ebird");
  EXPECT_EQ(ebird->auth.secret.env_var(), "EBIRD_API_TOKEN");
  EXPECT_FALSE(ebird->auth.secret.resolved());
  const std::filesystem::path replay = *registry->project.http.replay_dir;
  EXPECT_TRUE(std::filesystem::is_directory(replay / "ebird")) << replay;
}

//! Query parameters of a URL, decoded, without credential parameters.
std::multiset<std::string> QueryOf(const std::string& url) {
  std::multiset<std::string> params;
  const auto q = url.find('?');
  if (q == std::string::npos) return params;
  std::stringstream in(url.substr(q + 1));
  std::string pair;
  while (std::getline(in, pair, '&')) {
    const auto eq = pair.find('=');
    const std::string name = UrlDecode(pair.substr(0, eq));
    if (IsCredentialParamName(name)) continue;
    params.insert(name + "=" + UrlDecode(eq == std::string::npos ? "" : pair.substr(eq + 1)));
  }
  return params;
}

std::string Fill(std::string text, const WindowSettings* window) {
  for (auto [name, value] : {std::pair<std::string, std::optional<std::string>>{
                                 "{start}", window ? window->start : std::nullopt},
                             {"{end}", window ? window->end : std::nullopt}}) {
    if (auto at = text.find(name); at != std::string::npos && value) {
      text.replace(at, name.size(), *value);
    }
  }
  return text;
}

// The example must request exactly what was recorded, or replay cannot answer it. This rebuilds
// the first request of every enabled routine resource and looks for it among the recorded URIs.
TEST(RegistryExampleTest, FirstRequestOfEveryEnabledRoutineResourceIsRecorded) {
  auto registry = LoadRegistry(kExample, {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  for (const Source* source : registry->RoutineSources()) {
    std::vector<std::pair<std::string, std::multiset<std::string>>> recorded;
    for (const auto& entry :
         std::filesystem::directory_iterator(*registry->project.http.replay_dir / source->name)) {
      std::ifstream in(entry.path());
      std::string line;
      while (std::getline(in, line)) {
        const auto at = line.find("uri: ");
        if (at == std::string::npos) continue;
        const std::string uri = line.substr(at + 5);
        recorded.emplace_back(uri.substr(0, uri.find('?')), QueryOf(uri));
      }
    }
    const WindowSettings* window = source->window ? &*source->window : nullptr;
    for (const Resource& resource : source->resources) {
      if (!resource.enabled) continue;
      std::multiset<std::string> query;
      std::map<std::string, std::string> params = source->params;
      for (const auto& [k, v] : resource.params) params[k] = v;
      if (resource.refine) {
        for (const auto& [k, v] : resource.refine->params) params[k] = v;
      }
      for (const auto& [k, v] : params) query.insert(k + "=" + Fill(v, window));
      const Pagination& p = resource.pagination;
      if (p.type == PaginationType::kOffsetLimit) {
        query.insert(p.limit_param + "=" + std::to_string(p.page_size));
        query.insert(p.offset_param + "=0");
      } else if (p.type == PaginationType::kPageNumber) {
        query.insert(p.page_param + "=" + std::to_string(p.start_page));
        query.insert(p.page_size_param + "=" + std::to_string(p.page_size));
      }
      const std::string url = source->base_url + resource.path;
      bool found = false;
      for (const auto& [recorded_url, recorded_query] : recorded) {
        found = found || (recorded_url == url && recorded_query == query);
      }
      EXPECT_TRUE(found) << source->name << "." << resource.name << ": " << url
                         << " with the configured params is not in the recordings";
    }
  }
}

TEST(RegistryDefaultsTest, MinimalFileGetsDocumentedDefaults) {
  TempConfig config(kMinimalSource);
  auto registry = LoadRegistry(config.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const ProjectSettings& p = registry->project;
  const auto dir = std::filesystem::canonical(config.dir());
  EXPECT_EQ(p.state_dir, dir / ".databox");
  EXPECT_EQ(p.catalog.type, CatalogType::kSql);
  EXPECT_EQ(p.catalog.name, "databox_lake");
  EXPECT_EQ(p.catalog.uri, (dir / ".databox/catalog.sqlite").string());
  EXPECT_EQ(p.warehouse.location, (dir / ".databox/warehouse").string());
  EXPECT_FALSE(p.warehouse.is_s3);
  EXPECT_EQ(p.analytics.database, dir / ".databox/databox.duckdb");
  EXPECT_EQ(p.analytics.catalog_alias, "polaris_aws");
  EXPECT_EQ(p.transform.project_dir, dir / "transform");
  EXPECT_EQ(p.transform.command.front(), "sqlmesh");
  EXPECT_FALSE(registry->replay());
  EXPECT_EQ(p.max_workers, 4);
  const Source& s = registry->sources.at(0);
  EXPECT_EQ(s.Namespace(), "raw_quakes");
  EXPECT_EQ(s.kind, SourceKind::kRestJson);
  EXPECT_EQ(s.resources.at(0).merge_duplicates, DuplicatePolicy::kLastWins);
  EXPECT_EQ(s.resources.at(0).pagination.type, PaginationType::kNone);
}

TEST(RegistryDefaultsTest, FormatDefaultsToJsonAndNamesNdjson) {
  {
    TempConfig config(kMinimalSource);
    auto registry = LoadRegistry(config.path(), {.env = NoEnv});
    ASSERT_TRUE(registry.has_value()) << registry.error().message;
    EXPECT_EQ(registry->sources.at(0).resources.at(0).format, ResponseFormat::kJson);
  }
  std::string text = kMinimalSource;
  text += "format = \"ndjson\"\n";
  TempConfig config(text);
  auto registry = LoadRegistry(config.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const ResponseFormat format = registry->sources.at(0).resources.at(0).format;
  EXPECT_EQ(format, ResponseFormat::kNdjson);
  EXPECT_EQ(ToString(format), "ndjson");
}

TEST(RegistryDefaultsTest, MergeModeIsUnsetUnlessNamedAndOnlyForMerge) {
  {
    TempConfig config(kMinimalSource);
    auto registry = LoadRegistry(config.path(), {.env = NoEnv});
    ASSERT_TRUE(registry.has_value()) << registry.error().message;
    EXPECT_FALSE(registry->sources.at(0).resources.at(0).merge_mode.has_value());
  }
  {
    TempConfig config(std::string(kMinimalSource) + "merge_mode = \"merge-on-read\"\n");
    auto registry = LoadRegistry(config.path(), {.env = NoEnv});
    ASSERT_TRUE(registry.has_value()) << registry.error().message;
    EXPECT_EQ(registry->sources.at(0).resources.at(0).merge_mode, MergeMode::kMergeOnRead);
  }
  std::string text = kMinimalSource;
  text.replace(text.find("\"merge\""), 7, "\"append\"");
  TempConfig config(text + "merge_mode = \"merge-on-write\"\n");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 12, "merge-on-write")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 12, "only used with write_disposition")) << report.ToString();
}

TEST(RegistryDefaultsTest, StateDirAndS3WarehouseAreResolved) {
  TempConfig config(std::string(R"([project]
state_dir = "state"
[project.warehouse]
location = "s3://bucket/lake"
[project.warehouse.s3]
endpoint = "http://127.0.0.1:9000"
path_style = true
)") + kMinimalSource);
  auto registry = LoadRegistry(config.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const auto dir = std::filesystem::canonical(config.dir());
  EXPECT_EQ(registry->project.state_dir, dir / "state");
  EXPECT_EQ(registry->project.catalog.uri, (dir / "state/catalog.sqlite").string());
  EXPECT_TRUE(registry->project.warehouse.is_s3);
  EXPECT_EQ(registry->project.warehouse.location, "s3://bucket/lake");
  EXPECT_TRUE(registry->project.warehouse.s3.path_style);
}

// Without S3 keys a REST registry is valid: the catalog vends credentials per table.
TEST(RegistryDefaultsTest, RestCatalogWithoutS3KeysIsValidAndSaysWhereCredentialsComeFrom) {
  const std::string warehouse = R"(
[project.warehouse]
location = "s3://bucket/lake"
[project.warehouse.s3]
endpoint = "http://127.0.0.1:9000"
path_style = true
)";
  TempConfig rest(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/iceberg"
warehouse = "lake"
)") + warehouse + kMinimalSource);
  auto vended = LoadRegistry(rest.path(), {.env = NoEnv});
  ASSERT_TRUE(vended.has_value()) << vended.error().message;
  auto notes = ValidationNotes(*vended);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("come from the REST catalog"), std::string::npos) << notes[0];

  TempConfig embedded(warehouse + kMinimalSource);
  auto fixed = LoadRegistry(embedded.path(), {.env = NoEnv});
  ASSERT_TRUE(fixed.has_value()) << fixed.error().message;
  EXPECT_TRUE(ValidationNotes(*fixed).empty());
}

TEST(RegistryValidationTest, RestCatalogSigv4TakesSigningNameAndRegion) {
  const std::string catalog = R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181"
warehouse = "warehouse"
)";
  TempConfig plain(catalog + "sigv4 = true\n" + kMinimalSource);
  auto registry = LoadRegistry(plain.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_TRUE(registry->project.catalog.sigv4);
  EXPECT_EQ(registry->project.catalog.signing_name, "s3tables");
  EXPECT_EQ(registry->project.catalog.signing_region, "");

  TempConfig named(catalog +
                   "sigv4 = true\nsigning_name = \"glue\"\nsigning_region = \"eu-west-1\"\n" +
                   kMinimalSource);
  registry = LoadRegistry(named.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_EQ(registry->project.catalog.signing_name, "glue");
  EXPECT_EQ(registry->project.catalog.signing_region, "eu-west-1");

  TempConfig with_token(catalog + "sigv4 = true\ntoken = \"${CATALOG_TOKEN}\"\n" + kMinimalSource);
  const ValidationReport token_report = Validate(with_token.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(token_report, 5, "'sigv4' excludes 'credential' and 'token'"))
      << token_report.ToString();

  TempConfig without(catalog + "signing_name = \"glue\"\n" + kMinimalSource);
  const ValidationReport without_report = Validate(without.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(without_report, 5, "only used with sigv4 = true"))
      << without_report.ToString();
}

TEST(RegistryValidationTest, UnderscoreTablePrefixIsCheckedAndReservesItsNames) {
  const std::string catalog = R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181"
warehouse = "warehouse"
)";
  TempConfig plain(catalog + "underscore_table_prefix = \"dbx\"\n" + kMinimalSource);
  auto registry = LoadRegistry(plain.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_EQ(registry->project.catalog.underscore_table_prefix, "dbx");

  for (const char* bad : {"_x", "Dbx", "db_x", "9x", "\"\""}) {
    TempConfig config(
        catalog + "underscore_table_prefix = " +
        (std::string(bad) == "\"\"" ? std::string(bad) : "\"" + std::string(bad) + "\"") + "\n" +
        kMinimalSource);
    const ValidationReport report = Validate(config.path(), {.env = NoEnv});
    EXPECT_TRUE(HasProblem(report, 5, "'underscore_table_prefix' must be 1 to 32 lowercase"))
        << bad << ": " << report.ToString();
  }

  // A resource (or child) table named <prefix>_... would read back as another table.
  const std::string colliding = std::string(kMinimalSource) + R"(
[[source.resource]]
name = "dbx_dlt_loads"
write_disposition = "append"
)";
  TempConfig collision(catalog + "underscore_table_prefix = \"dbx\"\n" + colliding);
  const ValidationReport report = Validate(collision.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 18,
                         "table 'dbx_dlt_loads' collides with the catalog's name of databox's "
                         "table '_dlt_loads'"))
      << report.ToString();
  EXPECT_NE(report.ToString().find("choose another underscore_table_prefix"), std::string::npos);
  // The same registry without the prefix, or with another one, is fine.
  TempConfig unmapped(catalog + colliding);
  EXPECT_TRUE(LoadRegistry(unmapped.path(), {.env = NoEnv}).has_value());
  TempConfig other(catalog + "underscore_table_prefix = \"s3t\"\n" + colliding);
  EXPECT_TRUE(LoadRegistry(other.path(), {.env = NoEnv}).has_value());

  TempConfig embedded("[project.catalog]\nunderscore_table_prefix = \"dbx\"\n" +
                      std::string(kMinimalSource));
  const ValidationReport sql_report = Validate(embedded.path(), {.env = NoEnv});
  EXPECT_TRUE(
      HasProblem(sql_report, 2, "'underscore_table_prefix' is only used when type = \"rest\""))
      << sql_report.ToString();
}

TEST(RegistryValidationTest, RestCatalogBearerTokenIsASecretExclusiveWithTheCredential) {
  const std::string catalog = R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:19120/iceberg"
warehouse = "lake"
token = "${CATALOG_TOKEN}"
)";
  TempConfig config(catalog + kMinimalSource);
  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "CATALOG_TOKEN") return "tok-123";
    return std::nullopt;
  };
  auto registry = LoadRegistry(config.path(), {.env = env});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  EXPECT_EQ(registry->project.catalog.token.env_var(), "CATALOG_TOKEN");
  EXPECT_EQ(registry->project.catalog.token.Reveal(), "tok-123");

  const ValidationReport unset = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(unset, 5, "CATALOG_TOKEN")) << unset.ToString();

  TempConfig both(catalog + "credential = \"${POLARIS_CREDENTIAL}\"\n" + kMinimalSource);
  const ValidationReport both_report = Validate(both.path(), {.env = env});
  EXPECT_TRUE(HasProblem(both_report, 5, "'token' and 'credential' are exclusive"))
      << both_report.ToString();

  TempConfig literal(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:19120/iceberg"
warehouse = "lake"
token = "eyJhbGciOiJSUzI1NiJ9.secret"
)") + kMinimalSource);
  const ValidationReport literal_report = Validate(literal.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(literal_report, 5, "must be an ${ENV_VAR} reference"))
      << literal_report.ToString();
  EXPECT_THAT(literal_report.ToString(), Not(HasSubstr("eyJhbGciOiJSUzI1NiJ9")));

  TempConfig embedded("[project.catalog]\ntoken = \"${CATALOG_TOKEN}\"\n" +
                      std::string(kMinimalSource));
  const ValidationReport embedded_report = Validate(embedded.path(), {.env = env});
  EXPECT_TRUE(HasProblem(embedded_report, 2, "only used when type = \"rest\""))
      << embedded_report.ToString();
}

TEST(RegistryDefaultsTest, TlsVerificationIsOnUnlessTheProjectOptsOut) {
  TempConfig defaults(kMinimalSource);
  auto on = LoadRegistry(defaults.path(), {.env = NoEnv});
  ASSERT_TRUE(on.has_value()) << on.error().message;
  EXPECT_TRUE(on->project.http.verify_tls);

  TempConfig opted_out("[project.http]\nverify_tls = false\n" + std::string(kMinimalSource));
  auto off = LoadRegistry(opted_out.path(), {.env = NoEnv});
  ASSERT_TRUE(off.has_value()) << off.error().message;
  EXPECT_FALSE(off->project.http.verify_tls);

  TempConfig wrong_type("[project.http]\nverify_tls = \"no\"\n" + std::string(kMinimalSource));
  const ValidationReport report = Validate(wrong_type.path(), {.env = NoEnv});
  EXPECT_FALSE(report.ok()) << "a string for verify_tls must be rejected, not read as false";
}

TEST(RegistryDefaultsTest, CatalogAndS3ClientTimeoutsAndRetries) {
  TempConfig config(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/api/catalog"
warehouse = "lake"
timeout_s = 2.5
retries = 1
[project.warehouse]
location = "s3://bucket/lake"
[project.warehouse.s3]
connect_timeout_s = 0.5
backoff_initial_s = 0.05
backoff_max_s = 0.2
)") + kMinimalSource);
  auto registry = LoadRegistry(config.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const ServiceHttpSettings& catalog = registry->project.catalog.http;
  EXPECT_EQ(catalog.timeout_s, 2.5);
  EXPECT_EQ(catalog.retries, 1);
  EXPECT_EQ(catalog.connect_timeout_s, 10);  // default
  const ServiceHttpSettings& s3 = registry->project.warehouse.s3.http;
  EXPECT_EQ(s3.connect_timeout_s, 0.5);
  EXPECT_EQ(s3.backoff_initial_s, 0.05);
  EXPECT_EQ(s3.backoff_max_s, 0.2);
  EXPECT_EQ(s3.timeout_s, 60);  // default
  EXPECT_EQ(s3.retries, 4);     // default
}

TEST(RegistryDefaultsTest, CatalogBackupDefaultsAndSettings) {
  {
    TempConfig config(kMinimalSource);
    auto registry = LoadRegistry(config.path(), {.env = NoEnv});
    ASSERT_TRUE(registry.has_value()) << registry.error().message;
    const CatalogBackupSettings& backup = registry->project.catalog.backup;
    const auto dir = std::filesystem::canonical(config.dir());
    EXPECT_EQ(backup.dir, dir / ".databox/catalog-backups");
    EXPECT_FALSE(backup.after_refresh);
    EXPECT_EQ(backup.keep, 7);
    EXPECT_TRUE(backup.database_url.empty());
  }
  TempConfig config(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/api/catalog"
warehouse = "lake"
backup_dir = "backups"
backup_after_refresh = true
backup_keep = 3
backup_database_url = "postgresql://polaris@127.0.0.1:5432/iceberg_fallback"
backup_database_password = "${CATALOG_DB_PASSWORD}"
)") + kMinimalSource);
  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "CATALOG_DB_PASSWORD") return "pw-in-env-9137";
    return std::nullopt;
  };
  auto registry = LoadRegistry(config.path(), {.env = env});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const CatalogBackupSettings& backup = registry->project.catalog.backup;
  EXPECT_EQ(backup.dir, std::filesystem::canonical(config.dir()) / "backups");
  EXPECT_TRUE(backup.after_refresh);
  EXPECT_EQ(backup.keep, 3);
  EXPECT_EQ(backup.database_url, "postgresql://polaris@127.0.0.1:5432/iceberg_fallback");
  EXPECT_EQ(backup.database_password.Reveal(), "pw-in-env-9137");
  EXPECT_EQ(Redact("password pw-in-env-9137"), "password ***");
}

TEST(RegistryValidationTest, CatalogBackupDatabaseNeedsRestAndNoPasswordInTheUrl) {
  TempConfig sql(std::string(R"([project.catalog]
backup_keep = 0
backup_database_url = "postgresql://u@h/db"
)") + kMinimalSource);
  const ValidationReport sql_report = Validate(sql.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(sql_report, 2, "backup_keep")) << sql_report.ToString();
  EXPECT_TRUE(HasProblem(sql_report, 3, "only used when type = \"rest\"")) << sql_report.ToString();

  TempConfig rest(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/api/catalog"
warehouse = "lake"
backup_database_url = "postgresql://polaris:hunter2secret@127.0.0.1:5432/db"
)") + kMinimalSource);
  const ValidationReport report = Validate(rest.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 5, "must not contain a password")) << report.ToString();
  EXPECT_THAT(report.ToString(), Not(HasSubstr("hunter2secret")));

  TempConfig no_db(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/api/catalog"
warehouse = "lake"
backup_database_url = "mysql://h/db"
backup_database_password = "${UNSET_DB_PASSWORD}"
)") + kMinimalSource);
  const ValidationReport no_db_report = Validate(no_db.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(no_db_report, 5, "must start with postgresql://"))
      << no_db_report.ToString();
  EXPECT_TRUE(HasProblem(no_db_report, 6, "UNSET_DB_PASSWORD")) << no_db_report.ToString();
}

TEST(RegistryDefaultsTest, TransformGatewayDefaultsToDuckDbAndReadsTheTrinoKeys) {
  {
    TempConfig config(kMinimalSource);
    auto registry = LoadRegistry(config.path(), {.env = NoEnv});
    ASSERT_TRUE(registry.has_value()) << registry.error().message;
    EXPECT_EQ(registry->project.transform.gateway, TransformGateway::kDuckDb);
  }
  TempConfig config(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/api/catalog"
warehouse = "lake"
[project.transform]
gateway = "trino"
trino_uri = "http://127.0.0.1:8080/"
trino_user = "analyst"
analytics_catalog = "lake_models"
state_database_url = "postgresql://sqlmesh@127.0.0.1:5433/sqlmesh_state"
state_database_password = "${SQLMESH_STATE_PASSWORD}"
)") + kMinimalSource);
  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "SQLMESH_STATE_PASSWORD") return "state-pw-5521";
    return std::nullopt;
  };
  auto registry = LoadRegistry(config.path(), {.env = env});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const TransformSettings& transform = registry->project.transform;
  EXPECT_EQ(transform.gateway, TransformGateway::kTrino);
  EXPECT_EQ(transform.trino.uri, "http://127.0.0.1:8080");  // trailing / dropped
  EXPECT_EQ(transform.trino.user, "analyst");
  EXPECT_EQ(transform.trino.analytics_catalog, "lake_models");
  EXPECT_EQ(transform.trino.state_url, "postgresql://sqlmesh@127.0.0.1:5433/sqlmesh_state");
  EXPECT_EQ(transform.trino.state_password.Reveal(), "state-pw-5521");
}

TEST(RegistryValidationTest, TrinoGatewayNeedsARestCatalogACoordinatorAndAStateDatabase) {
  TempConfig embedded(std::string(R"([project.transform]
gateway = "trino"
)") + kMinimalSource);
  const ValidationReport report = Validate(embedded.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 2, "needs a REST catalog")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 1, "trino_uri")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 1, "needs SQLMesh's state database")) << report.ToString();

  TempConfig bad(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/api/catalog"
warehouse = "lake"
[project.transform]
gateway = "spark"
trino_uri = "http://127.0.0.1:8080"
)") + kMinimalSource);
  const ValidationReport bad_report = Validate(bad.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(bad_report, 6, "is not a gateway")) << bad_report.ToString();
  EXPECT_TRUE(HasProblem(bad_report, 7, "only read with gateway = \"trino\""))
      << bad_report.ToString();

  TempConfig password(std::string(R"([project.catalog]
type = "rest"
uri = "http://127.0.0.1:8181/api/catalog"
warehouse = "lake"
[project.transform]
gateway = "trino"
trino_uri = "http://127.0.0.1:8080"
analytics_catalog = "Not-A-Name"
state_database_url = "postgresql://u:secret-in-url-77@127.0.0.1/db"
)") + kMinimalSource);
  const ValidationReport pw_report = Validate(password.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(pw_report, 8, "must be a Trino catalog name")) << pw_report.ToString();
  EXPECT_TRUE(HasProblem(pw_report, 9, "state_database_password")) << pw_report.ToString();
  EXPECT_THAT(pw_report.ToString(), Not(HasSubstr("secret-in-url-77")));
}

TEST(RegistryValidationTest, FoldersDataboxWritesIntoMustBeItsOwn) {
  // Each line names a folder databox would write into; none of them may be a system folder,
  // the filesystem root, a shared top-level folder, the home folder or (state) the registry's.
  TempConfig config(std::string(R"([project]
state_dir = "/"
[project.catalog]
backup_dir = "/tmp"
[project.warehouse]
location = "../../../../../../../../usr/share/lake"  # outside the repository on purpose
[project.analytics]
database = "/etc/databox.duckdb"
[project.transform]
project_dir = "../../../../../../../../etc"  # outside the repository on purpose
)") + kMinimalSource);
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 2, "/ is the filesystem root")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 4, "/tmp is the shared folder /tmp itself")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 6, "inside the system folder /usr")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 8, "inside the system folder /etc")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 10, "/etc is inside the system folder /etc")) << report.ToString();
  EXPECT_EQ(report.problems.size(), 5u) << report.ToString();

  // The registry's own folder as state folder, and a symlink that leads into /etc.
  TempConfig here(std::string("[project]\nstate_dir = \".\"\n") + kMinimalSource);
  std::filesystem::create_directory_symlink("/etc", here.dir() / "etc_link");
  here.Write("databox.toml", std::string("[project]\nstate_dir = \".\"\n[project.transform]\n"
                                         "project_dir = \"etc_link/sqlmesh\"\n") +
                                 kMinimalSource);
  const ValidationReport here_report = Validate(here.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(here_report, 2, "holds the registry's own folder"))
      << here_report.ToString();
  EXPECT_TRUE(HasProblem(here_report, 4, "inside the system folder /etc"))
      << here_report.ToString();

  // The home folder itself is refused; a folder below it is fine.
  TempConfig home(std::string("[project]\nstate_dir = \"home\"\n") + kMinimalSource);
  std::filesystem::create_directory(home.dir() / "home");
  const std::string home_dir = (home.dir() / "home").string();
  auto env = [&](const std::string& name) -> std::optional<std::string> {
    if (name == "HOME") return home_dir;
    return std::nullopt;
  };
  const ValidationReport home_report = Validate(home.path(), {.env = env});
  EXPECT_TRUE(HasProblem(home_report, 2, "is your home folder")) << home_report.ToString();
  home.Write("databox.toml",
             std::string("[project]\nstate_dir = \"home/.databox\"\n") + kMinimalSource);
  EXPECT_TRUE(Validate(home.path(), {.env = env}).problems.empty());
}

TEST(RegistryValidationTest, AStateFolderThatIsAFileIsRefused) {
  TempConfig config(std::string("[project]\nstate_dir = \"state\"\n") + kMinimalSource);
  std::ofstream(config.dir() / "state") << "not a folder";
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 2, "state is an existing file, not a folder"))
      << report.ToString();
  // A file above the state folder is refused the same way.
  config.Write("databox.toml",
               std::string("[project]\nstate_dir = \"state/inner\"\n") + kMinimalSource);
  const ValidationReport below = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(below, 2, "state is an existing file, not a folder")) << below.ToString();
}

TEST(RegistryValidationTest, ACatalogNameWithAPathOrQuotesIsRefused) {
  for (const std::string name : {"../../x", "a/b", "it's", "say \\\"hi\\\"", ".."}) {
    TempConfig config("[project.catalog]\nname = \"" + name + "\"\n" + kMinimalSource);
    const ValidationReport report = Validate(config.path(), {.env = NoEnv});
    EXPECT_TRUE(HasProblem(report, 2, "no path or quotes")) << name << ": " << report.ToString();
  }
  TempConfig fine(std::string("[project.catalog]\nname = \"lake_2.prod-a\"\n") + kMinimalSource);
  EXPECT_TRUE(Validate(fine.path(), {.env = NoEnv}).problems.empty());
}

TEST(RegistryValidationTest, RedirectHostsAreHostNames) {
  std::string text = kMinimalSource;
  const std::string base_url = "base_url = \"https://example.org/feed.json\"\n";
  text.replace(text.find(base_url), base_url.size(),
               base_url + "redirect_hosts = [\"cdn.example.org\", \"https://x.org/a\"]\n");
  TempConfig config(text);
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  EXPECT_THAT(report.ToString(), HasSubstr("\"https://x.org/a\" is not a host name"));
}

TEST(RegistryValidationTest, CatalogTimeoutsNeedTheRestCatalog) {
  TempConfig config(std::string(R"([project.catalog]
type = "sql"
timeout_s = 2
[project.warehouse]
location = "s3://bucket/lake"
[project.warehouse.s3]
retries = 99
)") + kMinimalSource);
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 3, "only used when type = \"rest\"")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 7, "retries")) << report.ToString();
  EXPECT_EQ(report.problems.size(), 2u) << report.ToString();
}

TEST(RegistryValidationTest, ReportsEveryProblemWithItsLine) {
  TempConfig config(R"([project]
max_workrs = 3

[[source]]
name = "Bad-Name"
eligibility = "sometimes"
base_url = "ftp://example.org"

[[source.resource]]
name = "events"
write_disposition = "upsert"

[[source]]
name = "dup"
eligibility = "routine"
base_url = "https://example.org"

[[source.resource]]
name = "things"
write_disposition = "merge"

[[source.resource]]
name = "things"
primary_key = "id"
write_disposition = "append"

[[source]]
name = "dup"
eligibility = "explicit"
base_url = "https://example.org"

[[source.resource]]
name = "other"
write_disposition = "replace"
)");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 2, "unknown key 'max_workrs'")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 5, "source name 'Bad-Name' is invalid")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 6, "'eligibility' has unknown value 'sometimes'"))
      << report.ToString();
  EXPECT_TRUE(HasProblem(report, 7, "'base_url' must start with http")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 11, "'write_disposition' has unknown value 'upsert'"))
      << report.ToString();
  EXPECT_TRUE(HasProblem(report, 20, "merge\" needs a primary_key")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 22, "table 'things' is declared twice (first at line 18)"))
      << report.ToString();
  EXPECT_TRUE(HasProblem(report, 27, "source 'dup' is declared twice (first at line 13)"))
      << report.ToString();
  EXPECT_EQ(report.problems.size(), 8u) << report.ToString();
  // Hints go with problems, and the report renders as file:line: message (hint: ...).
  EXPECT_THAT(report.ToString(),
              HasSubstr(config.path().string() +
                        ":2: [project]: unknown key 'max_workrs' (hint: did you mean "
                        "'max_workers'?)"));
  auto loaded = LoadRegistry(config.path(), {.env = NoEnv});
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().kind, ErrorKind::kConfig);
  EXPECT_THAT(loaded.error().message, HasSubstr("8 problems"));
  EXPECT_THAT(loaded.error().message, HasSubstr(report.ToString()));
}

TEST(RegistryTest, AFolderInPlaceOfTheRegistryFileIsNamedAsOne) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("databox_registry_folder_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const ValidationReport report = Validate(dir, {.env = NoEnv});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  EXPECT_EQ(report.problems.front().message, "is a folder, not a registry file");
  EXPECT_THAT(report.problems.front().hint, HasSubstr((dir / "databox.toml").string()));
  std::filesystem::remove_all(dir);
}

// A key column the transform's output cannot hold is refused with the closest output name; a
// key the transform names or `columns` declares passes, and without a transform only the load
// can tell.
TEST(RegistryTest, PrimaryKeyNamingNoColumnIsAProblemWithTheClosestName) {
  TempConfig config(R"([[source]]
name = "quakes"
eligibility = "routine"
base_url = "https://example.org"

[[source.resource]]
name = "events"
write_disposition = "merge"
primary_key = ["event_idd", "magnitude", "placeId"]
columns = { magnitude = "double" }
transform = """
SELECT record->>'$.id' AS event_id, TRY_CAST(record->>'$.mag' AS DOUBLE) AS magnitude,
       record->>'$.place' AS place_id
FROM records
"""

[[source.resource]]
name = "raw_events"
write_disposition = "merge"
primary_key = ["whatever"]
columns = { magnitude = "double" }
)");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 9,
                         "source 'quakes' resource 'events': primary_key column 'event_idd' is "
                         "neither in 'columns' nor named by 'transform'"))
      << report.ToString();
  EXPECT_THAT(report.ToString(), HasSubstr(":9: source 'quakes' resource 'events': primary_key "
                                           "column 'event_idd' is neither in 'columns' nor named "
                                           "by 'transform' (hint: did you mean 'event_id'?)"));
  EXPECT_EQ(report.problems.size(), 1u) << report.ToString();
}

TEST(RegistryValidationTest, FileRedirectUrlIsTheExactTargetWithoutAQuery) {
  TempConfig config(R"(
[[source]]
name = "traits"
eligibility = "explicit"
kind = "file"

[source.file]
url = "https://example.org/files/1"
redirect_url = "https://bucket.example.net/files/1/data.xlsx?X-Amz-Expires=10"

[[source.resource]]
name = "traits"
primary_key = ["id"]
write_disposition = "replace"
)");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 9, "'redirect_url' must not contain a query"))
      << report.ToString();
  EXPECT_EQ(report.problems.size(), 1u) << report.ToString();
}

TEST(RegistryValidationTest, UnknownKeysInNestedTables) {
  TempConfig config(R"(
[[source]]
name = "quakes"
eligibility = "routine"
base_url = "https://example.org"

[[source.resource]]
name = "events"
write_disposition = "append"
pagination = { type = "page_number", page_sise = 10 }
columns = { mag = { type = "double", nulable = true } }
)");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 10, "unknown key 'page_sise'")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 11, "unknown key 'nulable'")) << report.ToString();
  EXPECT_EQ(report.problems.size(), 2u) << report.ToString();
}

TEST(RegistryValidationTest, TargetedSettingsHaveDefaultsAndRanges) {
  const std::string source = R"(
[[source]]
name = "usfws"
eligibility = "explicit"
kind = "targeted"
base_url = "https://www.fws.gov"
%TARGETS%
[[source.resource]]
name = "image_search_runs"
write_disposition = "append"
)";
  auto with = [&](const std::string& targets) {
    std::string text = source;
    text.replace(text.find("%TARGETS%"), 9, targets);
    return text;
  };
  TempConfig defaults(with(""));
  auto loaded = LoadRegistry(defaults.path(), {.env = NoEnv});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const TargetSettings& t = *loaded->FindSource("usfws")->targets;
  EXPECT_EQ(t.max_images_per_target, 500);
  EXPECT_EQ(t.request_max_attempts, 6);
  EXPECT_EQ(t.detail_workers, 3);
  EXPECT_EQ(t.contact, "");

  TempConfig set(
      with("[source.targets]\nmax_images_per_target = 5\nrequest_max_attempts = 1\n"
           "detail_workers = 4\ncontact = \"ops@example.org\"\n"));
  auto loaded_set = LoadRegistry(set.path(), {.env = NoEnv});
  ASSERT_TRUE(loaded_set.has_value()) << loaded_set.error().message;
  const TargetSettings& s = *loaded_set->FindSource("usfws")->targets;
  EXPECT_EQ(s.max_images_per_target, 5);
  EXPECT_EQ(s.request_max_attempts, 1);
  EXPECT_EQ(s.detail_workers, 4);
  EXPECT_EQ(s.contact, "ops@example.org");

  TempConfig bad(
      with("[source.targets]\nmax_images_per_target = 501\nrequest_max_attempts = 7\n"
           "detail_workers = 0\n"));
  const ValidationReport report = Validate(bad.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 8, "max_images_per_target")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 9, "request_max_attempts")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 10, "detail_workers")) << report.ToString();
}

TEST(RegistryValidationTest, ChildTablePlaceholderAndColumnProblems) {
  TempConfig config(R"(
[[source]]
name = "birds"
eligibility = "routine"
base_url = "https://example.org"

[[source.resource]]
name = "taxonomy"
path = "/ref/{regoin}"
write_disposition = "replace"
child_tables = ["banding_codes"]
columns = { how_many = "integer" }
transform = "SELECT 1"
)");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 9, "unknown placeholder {regoin}")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 11, "child table 'banding_codes' must be named 'taxonomy__"))
      << report.ToString();
  EXPECT_TRUE(HasProblem(report, 12, "unknown type 'integer'")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 13, "does not read the relation `records`")) << report.ToString();
}

TEST(RegistryValidationTest, SyntaxErrorHasLine) {
  TempConfig config("[project]\nname = \"x\"\nmax_workers = = 3\n");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].line, 3);
  EXPECT_THAT(report.problems[0].message, HasSubstr("TOML syntax error"));
}

TEST(RegistryValidationTest, MissingFileIsAProblem) {
  const ValidationReport report = Validate("/nonexistent/databox.toml", {.env = NoEnv});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_THAT(report.problems[0].message, HasSubstr("not found"));
}

const char kAuthSource[] = R"(
[[source]]
name = "birds"
eligibility = "routine"
base_url = "https://example.org"

[source.auth]
type = "header"
name = "X-Token"
secret = "${BIRDS_TOKEN}"

[[source.resource]]
name = "obs"
write_disposition = "append"
)";

TEST(RegistrySecretTest, MissingEnvVarNamesTheVariable) {
  TempConfig config(kAuthSource);
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  ASSERT_EQ(report.problems.size(), 1u) << report.ToString();
  EXPECT_EQ(report.problems[0].line, 10);
  EXPECT_THAT(report.problems[0].message,
              HasSubstr("environment variable BIRDS_TOKEN (referenced by 'secret') is not set"));
}

TEST(RegistrySecretTest, EmptyValueCountsAsUnset) {
  TempConfig config(kAuthSource);
  config.Write(".env", "BIRDS_TOKEN=\n");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 10, "BIRDS_TOKEN (referenced by 'secret') is not set"))
      << report.ToString();
}

TEST(RegistrySecretTest, ReplayModeAllowsAbsentSecrets) {
  TempConfig config("[project.http]\nreplay = \".\"\n" + std::string(kAuthSource));
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(report.ok()) << report.ToString();
}

TEST(RegistrySecretTest, LiteralSecretIsRejectedWithoutEchoingIt) {
  std::string text = kAuthSource;
  text.replace(text.find("${BIRDS_TOKEN}"), 14, "hunter2-literal-token");
  text +=
      "\n[[source.resource]]\nname = \"x\"\nparams = { api_key = \"abc-literal-key\" }\n"
      "write_disposition = \"append\"\n";
  TempConfig config(text);
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 10, "must be an ${ENV_VAR} reference")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 18, "'params.api_key' looks like a credential"))
      << report.ToString();
  EXPECT_THAT(report.ToString(), Not(HasSubstr("hunter2-literal-token")));
  EXPECT_THAT(report.ToString(), Not(HasSubstr("abc-literal-key")));
}

TEST(RegistrySecretTest, SecretValueNeverAppearsInOutput) {
  const std::string value = "s3cr3t-VALUE-9f8e7d";
  auto env = [&](const std::string& name) -> std::optional<std::string> {
    if (name == "BIRDS_TOKEN") return value;
    return std::nullopt;
  };
  TempConfig good(kAuthSource);
  auto registry = LoadRegistry(good.path(), {.env = env});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const Secret& secret = registry->sources[0].auth.secret;
  EXPECT_TRUE(secret.resolved());
  EXPECT_EQ(secret.Reveal(), value);
  std::ostringstream printed;
  printed << secret;
  EXPECT_EQ(printed.str(), "***");
  EXPECT_THAT(FormatSourcesTable(*registry), Not(HasSubstr(value)));
  EXPECT_THAT(SourcesToJson(*registry).dump(), Not(HasSubstr(value)));

  // An invalid file that references the same secret: the error lists problems, never the value.
  std::string bad = kAuthSource;
  bad.replace(bad.find("\"append\""), 8, "\"upsert\"");
  TempConfig broken(bad);
  auto failed = LoadRegistry(broken.path(), {.env = env});
  ASSERT_FALSE(failed.has_value());
  EXPECT_THAT(failed.error().message, HasSubstr("upsert"));
  EXPECT_THAT(failed.error().message, Not(HasSubstr(value)));
}

TEST(RegistrySecretTest, DotEnvBesideTheConfigResolvesAndEnvironmentWins) {
  TempConfig config(kAuthSource);
  config.Write(".env", "# comment\nexport BIRDS_TOKEN=\"from-dot-env\"\nOTHER=1\n");
  auto from_file = LoadRegistry(config.path(), {.env = NoEnv});
  ASSERT_TRUE(from_file.has_value()) << from_file.error().message;
  EXPECT_EQ(from_file->sources[0].auth.secret.Reveal(), "from-dot-env");

  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "BIRDS_TOKEN") return "from-environment";
    return std::nullopt;
  };
  auto from_env = LoadRegistry(config.path(), {.env = env});
  ASSERT_TRUE(from_env.has_value()) << from_env.error().message;
  EXPECT_EQ(from_env->sources[0].auth.secret.Reveal(), "from-environment");
}

TEST(RegistrySecretTest, MalformedDotEnvIsAProblem) {
  TempConfig config(kAuthSource);
  config.Write(".env", "BIRDS_TOKEN=x\nthis line has no equals sign\n");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  // The broken .env is reported (by line, not content) and is not used at all.
  EXPECT_TRUE(HasProblem(report, 0, ".env:2: expected KEY=VALUE")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 10, "BIRDS_TOKEN")) << report.ToString();
  EXPECT_THAT(report.ToString(), Not(HasSubstr("equals sign")));
}

TEST(RegistryFormatTest, SourcesTableAndJsonListNamespacesAndTables) {
  auto registry = LoadRegistry(kExample, {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const std::string table = FormatSourcesTable(*registry);
  EXPECT_THAT(table, HasSubstr("SOURCE"));
  EXPECT_THAT(table,
              ::testing::ContainsRegex("avonet +explicit +file +raw_avonet +species_traits"));
  const nlohmann::json json = SourcesToJson(*registry);
  ASSERT_EQ(json.size(), 8u);
  EXPECT_EQ(json[1]["name"], "noaa");
  EXPECT_EQ(json[1]["namespace"], "raw_noaa");
  EXPECT_EQ(json[1]["eligibility"], "routine");
  EXPECT_EQ(json[1]["tables"], nlohmann::json({"daily_weather", "stations", "datasets"}));
}

TEST(RegistryFormatTest, DisabledResourcesAndUndeclaredTablesAreMarked) {
  auto registry = LoadRegistry(kExample, {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const UndeclaredTables undeclared = {{"gbif", {"occurrence__media"}}};
  const std::string table = FormatSourcesTable(*registry, undeclared);
  EXPECT_THAT(table, HasSubstr("taxonomy (disabled)"));
  EXPECT_THAT(table, HasSubstr("occurrence__media (undeclared)"));
  EXPECT_THAT(FormatSourcesTable(*registry), Not(HasSubstr("(undeclared)")));
  const nlohmann::json json = SourcesToJson(*registry, undeclared);
  bool saw_disabled = false;
  for (const auto& source : json) {
    for (const auto& resource : source["resources"]) {
      if (resource["name"] == "taxonomy") saw_disabled = resource["enabled"] == false;
    }
    if (source["name"] == "gbif") {
      EXPECT_EQ(source["undeclared_tables"], nlohmann::json({"occurrence__media"}));
    } else {
      EXPECT_TRUE(source["undeclared_tables"].empty()) << source["name"];
    }
  }
  EXPECT_TRUE(saw_disabled) << json.dump();
}

TEST(RegistryTableLayoutTest, PartitionAndSortTermsAreReadInOrder) {
  TempConfig config(
      std::string(kMinimalSource) +
      R"toml(columns = { observed_at = "timestamp", station = "text", depth = "bigint" }
partition = ["day(observed_at)", "bucket[16](station)", "truncate[10](depth)", "station"]
sort = ["observed_at desc", "station nulls last"]
)toml");
  auto registry = LoadRegistry(config.path(), {.env = NoEnv});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  const Resource& res = registry->sources.at(0).resources.at(0);
  ASSERT_EQ(res.partition.size(), 4u);
  EXPECT_EQ(res.partition[0], (PartitionTerm{"observed_at", LayoutTransform::kDay, 0}));
  EXPECT_EQ(res.partition[1].IcebergTransform(), "bucket[16]");
  EXPECT_EQ(res.partition[2].IcebergTransform(), "truncate[10]");
  EXPECT_EQ(res.partition[3], (PartitionTerm{"station", LayoutTransform::kIdentity, 0}));
  ASSERT_EQ(res.sort.size(), 2u);
  EXPECT_EQ(res.sort[0], (SortTerm{"observed_at", true, false}));
  EXPECT_EQ(res.sort[1], (SortTerm{"station", false, false}));
}

TEST(RegistryTableLayoutTest, BadTermsAreProblemsAtTheirLine) {
  TempConfig config(
      std::string(kMinimalSource) +
      R"toml(columns = { observed_at = "timestamp", station = "text", ratio = "double", day = "date" }
partition = ["hour(day)", "month(obseved_at)", "bucket(station)", "week(station)", "truncate[4](ratio)", "year(elevation)"]
sort = ["station sideways", "observed_at", "observed_at desc", "stattion"]
)toml");
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 13,
                         "'hour(day)': hour needs a timestamp column, and column "
                         "'day' is date"))
      << report.ToString();
  EXPECT_TRUE(HasProblem(report, 13, "column 'obseved_at' is not declared")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 13, "'bucket(station)' needs its parameter")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 13, "unknown transform 'week'")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 13, "truncate[4] needs a bigint, decimal, text or binary column"))
      << report.ToString();
  EXPECT_TRUE(HasProblem(report, 13, "column 'elevation' is not declared")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 14, "'station sideways' is not 'column [asc|desc]"))
      << report.ToString();
  EXPECT_TRUE(HasProblem(report, 14, "repeats column 'observed_at'")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 14, "column 'stattion' is not declared")) << report.ToString();
  bool did_you_mean = false;
  for (const Problem& p : report.problems) {
    if (p.message.find("obseved_at") != std::string::npos)
      did_you_mean = p.hint.find("did you mean 'observed_at'?") != std::string::npos;
  }
  EXPECT_TRUE(did_you_mean) << report.ToString();
}

TEST(RegistryTableLayoutTest, TransformsAcceptTheSourceTypesOfTheIcebergSpec) {
  // Rows of the spec's transform table, for the registry's column types.
  EXPECT_FALSE(TransformRefusal(LayoutTransform::kDay, "date"));
  EXPECT_FALSE(TransformRefusal(LayoutTransform::kDay, "timestamp"));
  EXPECT_TRUE(TransformRefusal(LayoutTransform::kDay, "bigint"));
  EXPECT_TRUE(TransformRefusal(LayoutTransform::kHour, "date"));
  EXPECT_FALSE(TransformRefusal(LayoutTransform::kBucket, "decimal"));
  EXPECT_FALSE(TransformRefusal(LayoutTransform::kBucket, "time"));
  EXPECT_TRUE(TransformRefusal(LayoutTransform::kBucket, "double"));
  EXPECT_TRUE(TransformRefusal(LayoutTransform::kBucket, "bool"));
  EXPECT_FALSE(TransformRefusal(LayoutTransform::kTruncate, "binary"));
  EXPECT_TRUE(TransformRefusal(LayoutTransform::kTruncate, "timestamp"));
  EXPECT_FALSE(TransformRefusal(LayoutTransform::kIdentity, "double"));
  EXPECT_FALSE(ParsePartitionTerm("bucket[0](id)"));
  EXPECT_FALSE(ParsePartitionTerm("day[3](ts)"));
  EXPECT_FALSE(ParsePartitionTerm("day(Ts)"));
  EXPECT_EQ(ParsePartitionTerm(" identity( id ) ").value(),
            (PartitionTerm{"id", LayoutTransform::kIdentity, 0}));
}

}  // namespace
}  // namespace databox::registry

namespace databox::registry {
namespace {

TEST(RegistryPublishTest, PublishSectionIsOptionalAndReadWithItsS3Secrets) {
  TempConfig none(kMinimalSource);
  auto plain = LoadRegistry(none.path(), {.env = NoEnv});
  ASSERT_TRUE(plain.has_value()) << plain.error().message;
  EXPECT_FALSE(plain->publish.has_value());

  TempConfig config(std::string(R"([publish]
to = "s3://public/databox"
namespaces = ["raw_noaa"]
tables = ["raw_usgs.sites"]
models = []
keep = 5
[publish.s3]
endpoint = "http://127.0.0.1:9000"
path_style = true
access_key_id = "${PUB_KEY}"
secret_access_key = "${PUB_SECRET}"
)") + kMinimalSource);
  auto env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "PUB_KEY") return "key-id";
    if (name == "PUB_SECRET") return "secret-value";
    return std::nullopt;
  };
  auto registry = LoadRegistry(config.path(), {.env = env});
  ASSERT_TRUE(registry.has_value()) << registry.error().message;
  ASSERT_TRUE(registry->publish.has_value());
  const PublishSettings& publish = *registry->publish;
  EXPECT_TRUE(publish.is_s3);
  EXPECT_EQ(publish.to, "s3://public/databox");
  EXPECT_EQ(publish.namespaces, std::vector<std::string>{"raw_noaa"});
  EXPECT_EQ(publish.tables, std::vector<std::string>{"raw_usgs.sites"});
  ASSERT_TRUE(publish.models.has_value());
  EXPECT_TRUE(publish.models->empty());
  EXPECT_EQ(publish.keep, 5);
  EXPECT_EQ(publish.s3.secret_access_key.Reveal(), "secret-value");
  EXPECT_TRUE(publish.s3.path_style);
}

TEST(RegistryPublishTest, BadPublishKeysAreReportedWithTheirLines) {
  TempConfig config(std::string(R"([publish]
to = "ftp://host/x"
tables = ["no_dot"]
keep = 0
secret_access_key = "literal"
)") + kMinimalSource);
  const ValidationReport report = Validate(config.path(), {.env = NoEnv});
  EXPECT_TRUE(HasProblem(report, 2, "'to' must be a local path or s3://")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 3, "is not namespace.table")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 4, "keep")) << report.ToString();
  EXPECT_TRUE(HasProblem(report, 5, "unknown key")) << report.ToString();
}

}  // namespace
}  // namespace databox::registry
