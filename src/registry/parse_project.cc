#include <regex>

#include "registry/parse_internal.h"

namespace databox::registry::internal {
namespace {

constexpr int kMaxWorkers = 64;

//! The timeout and retry keys shared by [project.http], REST [project.catalog] and
//! [project.warehouse.s3]; `settings` keeps its defaults for absent keys.
template <typename Settings>
void ReadTimeoutsAndRetries(TableReader& r, Settings& settings) {
  settings.connect_timeout_s =
      r.Number("connect_timeout_s", 0.1, kMaxTimeoutS).value_or(settings.connect_timeout_s);
  settings.timeout_s = r.Number("timeout_s", 0.1, kMaxTimeoutS).value_or(settings.timeout_s);
  settings.retries = static_cast<int>(r.Int("retries", 0, kMaxRetries).value_or(settings.retries));
  settings.backoff_initial_s =
      r.Number("backoff_initial_s", 0, kMaxTimeoutS).value_or(settings.backoff_initial_s);
  settings.backoff_max_s =
      r.Number("backoff_max_s", 0, kMaxTimeoutS).value_or(settings.backoff_max_s);
  if (settings.backoff_max_s < settings.backoff_initial_s) {
    r.Report("backoff_max_s", "'backoff_max_s' is smaller than 'backoff_initial_s'");
  }
}

//! Reports `key` (whose value is `text`) when `why` says databox must not write there;
//! `consequence` says what would happen.
void ReportFolder(const TableReader& r, std::string_view key, const std::string& text,
                  const std::string& why, const std::string& consequence) {
  if (why.empty()) return;
  r.Report(key, "'" + std::string(key) + "' = \"" + text + "\": " + why + "; " + consequence,
           "give it a folder of its own, e.g. a path relative to this file");
}

//! Problem text for a PostgreSQL URL that cannot name the catalog server's database; empty
//! when fine. The URL itself is never repeated (a password in it would be echoed).
std::string CheckPostgresUrl(std::string_view url, std::string_view password_key) {
  std::string_view rest;
  for (std::string_view scheme : {"postgresql://", "postgres://"}) {
    if (url.starts_with(scheme)) rest = url.substr(scheme.size());
  }
  if (rest.empty()) return "must start with postgresql:// (e.g. postgresql://user@host:5432/db)";
  if (url.find_first_of(" \t\r\n") != std::string_view::npos) return "must not contain whitespace";
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?"));
  const auto at = authority.rfind('@');
  if (at != std::string_view::npos && authority.substr(0, at).find(':') != std::string_view::npos) {
    return "must not contain a password: set " + std::string(password_key) +
           " = \"${VAR}\" instead";
  }
  if (url.find("password=") != std::string_view::npos) {
    return "must not contain a password parameter: set " + std::string(password_key) +
           " = \"${VAR}\"";
  }
  if (authority.substr(at == std::string_view::npos ? 0 : at + 1).empty()) return "has no host";
  const auto slash = rest.find('/');
  if (slash == std::string_view::npos || slash + 1 >= rest.size() || rest[slash + 1] == '?') {
    return "names no database (postgresql://user@host:port/DATABASE)";
  }
  return "";
}

//! The backup_* keys of [project.catalog]; `rest` says whether the database keys apply.
CatalogBackupSettings ParseCatalogBackup(TableReader& r, bool rest,
                                         const std::filesystem::path& state_dir,
                                         ParseContext& ctx) {
  constexpr int kMaxBackupsKept = 1000;
  CatalogBackupSettings backup;
  backup.dir = state_dir / "catalog-backups";
  if (auto dir = r.String("backup_dir")) {
    if (dir->empty()) r.Report("backup_dir", "'backup_dir' must not be empty");
    backup.dir = ResolvePath(ctx, *dir);
    ReportFolder(r, "backup_dir", *dir, WhyNotOwnFolder(ctx, backup.dir),
                 "databox would create and prune catalog backups there");
  }
  backup.after_refresh = r.Bool("backup_after_refresh").value_or(false);
  backup.keep = static_cast<int>(r.Int("backup_keep", 1, kMaxBackupsKept).value_or(backup.keep));
  backup.database_url = r.String("backup_database_url").value_or("");
  backup.database_password =
      ReadSecret(r, "backup_database_password", ctx, /*may_be_absent=*/!rest);
  if (!rest) return backup;  // the database keys are reported by the caller
  if (!backup.database_url.empty()) {
    if (auto bad = CheckPostgresUrl(backup.database_url, "backup_database_password");
        !bad.empty()) {
      r.Report("backup_database_url", "'backup_database_url' " + bad);
    }
  } else if (!backup.database_password.empty()) {
    r.Report("backup_database_password", "'backup_database_password' without backup_database_url",
             "set backup_database_url = \"postgresql://user@host:port/db\" too");
  }
  return backup;
}

CatalogSettings ParseCatalog(const toml::table* table, const std::filesystem::path& state_dir,
                             ParseContext& ctx) {
  CatalogSettings catalog;
  if (table == nullptr) {
    catalog.uri = (state_dir / "catalog.sqlite").string();
    catalog.backup.dir = state_dir / "catalog-backups";
    return catalog;
  }
  TableReader r(*table, "[project.catalog]", ctx.problems);
  catalog.type = r.Enum("type", kCatalogTypeNames).value_or(CatalogType::kSql);
  if (auto name = r.String("name")) {
    static const std::regex kCatalogName("^[A-Za-z0-9_][A-Za-z0-9_.-]*$");
    if (name->empty()) {
      r.Report("name", "'name' must not be empty", "omit it for databox_lake");
    } else if (!std::regex_match(*name, kCatalogName) || name->find("..") != std::string::npos) {
      r.Report("name",
               "'name' must be letters, digits, '_', '-' and '.' (not \"..\"), no path or "
               "quotes: the name becomes a folder under the warehouse and a value in SQL",
               "e.g. name = \"databox_lake\"");
    }
    catalog.name = *name;
  }
  auto uri = r.String("uri");
  const bool rest = catalog.type == CatalogType::kRest;
  // REST-only keys are read in any case so that they count as known; misuse is reported below.
  const char* rest_only[] = {"warehouse",
                             "credential",
                             "token",
                             "scope",
                             "oauth2_server_uri",
                             "realm",
                             "sigv4",
                             "signing_name",
                             "signing_region",
                             "underscore_table_prefix",
                             "connect_timeout_s",
                             "timeout_s",
                             "retries",
                             "backoff_initial_s",
                             "backoff_max_s",
                             "backup_database_url",
                             "backup_database_password"};
  catalog.warehouse = r.String("warehouse").value_or("");
  catalog.credential = ReadSecret(r, "credential", ctx, /*may_be_absent=*/!rest);
  catalog.token = ReadSecret(r, "token", ctx, /*may_be_absent=*/!rest);
  catalog.scope = r.String("scope").value_or("");
  catalog.oauth2_server_uri = r.String("oauth2_server_uri").value_or("");
  catalog.realm = r.String("realm").value_or("");
  catalog.sigv4 = r.Bool("sigv4").value_or(false);
  catalog.signing_name = r.String("signing_name").value_or(catalog.signing_name);
  catalog.signing_region = r.String("signing_region").value_or("");
  catalog.underscore_table_prefix = r.String("underscore_table_prefix").value_or("");
  ReadTimeoutsAndRetries(r, catalog.http);
  catalog.backup = ParseCatalogBackup(r, rest, state_dir, ctx);
  if (rest) {
    if (!uri) {
      r.Report("uri", "missing required key 'uri' for type = \"rest\"",
               "e.g. uri = \"http://127.0.0.1:8181/api/catalog\"");
    } else if (auto bad = CheckHttpUrl(*uri); !bad.empty()) {
      r.Report("uri", "'uri' " + bad);
    }
    if (catalog.warehouse.empty()) {
      r.Report("warehouse", "missing required key 'warehouse' for type = \"rest\"",
               "set it to the Polaris catalog name");
    }
    if (r.Has("credential") && r.Has("token")) {
      r.Report("token", "'token' and 'credential' are exclusive",
               "keep credential for OAuth2 client credentials (Polaris), or token for a bearer "
               "token the catalog's identity provider issued");
    }
    if (catalog.sigv4 && (r.Has("credential") || r.Has("token"))) {
      r.Report("sigv4", "'sigv4' excludes 'credential' and 'token'",
               "a SigV4 catalog authenticates with the warehouse's S3 keys; remove credential "
               "and token");
    }
    if (!catalog.sigv4 && (r.Has("signing_name") || r.Has("signing_region"))) {
      r.Report(r.Has("signing_name") ? "signing_name" : "signing_region",
               "'signing_name' and 'signing_region' are only used with sigv4 = true",
               "add sigv4 = true or remove them");
    }
    // As iceberg::TableNames::Make accepts it (the registry cannot include iceberg/).
    static const std::regex kUnderscoreTablePrefix("^[a-z][a-z0-9]{0,31}$");
    if (r.Has("underscore_table_prefix") &&
        !std::regex_match(catalog.underscore_table_prefix, kUnderscoreTablePrefix)) {
      r.Report("underscore_table_prefix",
               "'underscore_table_prefix' must be 1 to 32 lowercase letters and digits starting "
               "with a letter: it starts the catalog's name of every table whose name starts "
               "with '_'",
               "e.g. underscore_table_prefix = \"dbx\" (_dlt_loads is then dbx_dlt_loads)");
    }
    if (!catalog.oauth2_server_uri.empty()) {
      if (auto bad = CheckHttpUrl(catalog.oauth2_server_uri); !bad.empty()) {
        r.Report("oauth2_server_uri", "'oauth2_server_uri' " + bad);
      }
    }
    catalog.uri = uri.value_or("");
  } else {
    for (const char* key : rest_only) {
      if (r.Has(key)) {
        r.Report(key, "'" + std::string(key) + "' is only used when type = \"rest\"",
                 "remove it or set type = \"rest\"");
      }
    }
    catalog.uri = uri ? ResolvePath(ctx, *uri).string() : (state_dir / "catalog.sqlite").string();
    if (uri) {
      ReportFolder(r, "uri", *uri,
                   WhyNotOwnFolder(ctx, std::filesystem::path(catalog.uri).parent_path()),
                   "databox would create the catalog database there");
    }
  }
  r.ReportUnknownKeys();
  return catalog;
}

}  // namespace

std::optional<std::pair<std::string, bool>> ReadStoreLocation(TableReader& r, std::string_view key,
                                                              ParseContext& ctx,
                                                              const std::string& consequence) {
  auto text = r.String(key);
  if (!text) return std::nullopt;
  const std::string quoted = "'" + std::string(key) + "'";
  if (text->starts_with("s3://")) {
    if (text->size() <= 5 || (*text)[5] == '/') {
      r.Report(key, quoted + " has no bucket", "write s3://bucket/prefix");
    }
    return std::pair{*text, true};
  }
  if (text->find("://") != std::string::npos) {
    r.Report(key, quoted + " must be a local path or s3://bucket/prefix");
    return std::nullopt;
  }
  std::string path = ResolvePath(ctx, *text).string();
  ReportFolder(r, key, *text, WhyNotOwnFolder(ctx, path), consequence);
  return std::pair{std::move(path), false};
}

void ReadS3Settings(TableReader& s, S3Settings& settings, ParseContext& ctx) {
  settings.endpoint = s.String("endpoint").value_or("");
  if (!settings.endpoint.empty()) {
    if (auto bad = CheckHttpUrl(settings.endpoint); !bad.empty()) {
      s.Report("endpoint", "'endpoint' " + bad);
    }
  }
  if (auto region = s.String("region")) settings.region = *region;
  settings.path_style = s.Bool("path_style").value_or(false);
  settings.access_key_id = ReadSecret(s, "access_key_id", ctx, false);
  settings.secret_access_key = ReadSecret(s, "secret_access_key", ctx, false);
  settings.session_token = ReadSecret(s, "session_token", ctx, false);
  ReadTimeoutsAndRetries(s, settings.http);
  if (settings.access_key_id.empty() != settings.secret_access_key.empty()) {
    s.Report("access_key_id", "'access_key_id' and 'secret_access_key' must be set together",
             "set both, or neither to use vended credentials");
  }
}

void ReadS3Subtable(TableReader& r, std::string_view context, std::string_view noun, bool is_s3,
                    std::string_view fix, S3Settings& settings, ParseContext& ctx) {
  const toml::table* s3 = r.Table("s3");
  if (s3 == nullptr) return;
  TableReader s(*s3, std::string(context), ctx.problems);
  if (!is_s3) {
    r.Report("s3", std::string(context) + " is only used with an s3:// " + std::string(noun),
             std::string(fix));
  }
  ReadS3Settings(s, settings, ctx);
  s.ReportUnknownKeys();
}

namespace {

WarehouseSettings ParseWarehouse(const toml::table* table, const std::filesystem::path& state_dir,
                                 ParseContext& ctx) {
  WarehouseSettings warehouse;
  warehouse.location = (state_dir / "warehouse").string();
  if (table == nullptr) return warehouse;
  TableReader r(*table, "[project.warehouse]", ctx.problems);
  if (auto location =
          ReadStoreLocation(r, "location", ctx, "databox would write every table's files there")) {
    warehouse.location = location->first;
    warehouse.is_s3 = location->second;
  }
  ReadS3Subtable(r, "[project.warehouse.s3]", "location", warehouse.is_s3,
                 "remove it or set location = \"s3://bucket/prefix\"", warehouse.s3, ctx);
  r.ReportUnknownKeys();
  return warehouse;
}

AnalyticsSettings ParseAnalytics(const toml::table* table, const std::filesystem::path& state_dir,
                                 ParseContext& ctx) {
  AnalyticsSettings analytics;
  analytics.database = state_dir / "databox.duckdb";
  if (table == nullptr) return analytics;
  TableReader r(*table, "[project.analytics]", ctx.problems);
  if (auto database = r.String("database")) {
    analytics.database = ResolvePath(ctx, *database);
    ReportFolder(r, "database", *database, WhyNotOwnFolder(ctx, analytics.database.parent_path()),
                 "databox would create the analytics database there");
  }
  if (auto alias = r.String("catalog_alias")) {
    static const std::regex kIdentifier("^[a-z_][a-z0-9_]*$");
    if (!std::regex_match(*alias, kIdentifier)) {
      r.Report("catalog_alias", "'catalog_alias' = \"" + *alias + "\" is not a valid identifier",
               "use lowercase letters, digits and underscores, e.g. polaris_aws");
    }
    analytics.catalog_alias = *alias;
  }
  r.ReportUnknownKeys();
  return analytics;
}

//! The gateway key and the Trino gateway's keys of [project.transform].
void ParseTrinoGateway(TableReader& r, TransformSettings& transform, bool rest_catalog,
                       ParseContext& ctx) {
  const std::string gateway = r.String("gateway").value_or("duckdb");
  if (gateway == "trino") {
    transform.gateway = TransformGateway::kTrino;
  } else if (gateway != "duckdb") {
    r.Report("gateway", "'gateway' = \"" + gateway + "\" is not a gateway",
             "use \"duckdb\" (default) or \"trino\"");
  }
  const bool trino = transform.gateway == TransformGateway::kTrino;
  TrinoGatewaySettings& settings = transform.trino;
  settings.uri = r.String("trino_uri").value_or("");
  settings.user = r.String("trino_user").value_or(settings.user);
  settings.analytics_catalog = r.String("analytics_catalog").value_or(settings.analytics_catalog);
  settings.state_url = r.String("state_database_url").value_or("");
  settings.state_password = ReadSecret(r, "state_database_password", ctx, /*may_be_absent=*/!trino);
  if (!trino) {
    for (const char* key : {"trino_uri", "trino_user", "analytics_catalog", "state_database_url",
                            "state_database_password"}) {
      if (r.Has(key)) {
        r.Report(key, "'" + std::string(key) + "' is only read with gateway = \"trino\"",
                 "add gateway = \"trino\" or remove it");
      }
    }
    return;
  }
  if (!rest_catalog) {
    r.Report("gateway",
             "gateway = \"trino\" needs a REST catalog: Trino cannot read the embedded one",
             "set [project.catalog] type = \"rest\", or use gateway = \"duckdb\"");
  }
  while (settings.uri.ends_with('/')) settings.uri.pop_back();
  if (!settings.uri.starts_with("http://") && !settings.uri.starts_with("https://")) {
    r.Report("trino_uri", "gateway = \"trino\" needs the coordinator's trino_uri",
             "e.g. trino_uri = \"http://127.0.0.1:8080\"");
  }
  if (settings.user.empty()) r.Report("trino_user", "'trino_user' must not be empty");
  static const std::regex kCatalogName("^[a-z][a-z0-9_]*$");
  if (!std::regex_match(settings.analytics_catalog, kCatalogName)) {
    r.Report("analytics_catalog", "'analytics_catalog' must be a Trino catalog name",
             "lower-case letters, digits and _, e.g. databox_analytics");
  }
  if (settings.state_url.empty()) {
    r.Report("state_database_url", "gateway = \"trino\" needs SQLMesh's state database",
             "state_database_url = \"postgresql://user@host:port/db\" (SQLMesh cannot keep "
             "its state in Trino)");
  } else if (auto bad = CheckPostgresUrl(settings.state_url, "state_database_password");
             !bad.empty()) {
    r.Report("state_database_url", "'state_database_url' " + bad);
  }
}

TransformSettings ParseTransform(const toml::table* table, bool rest_catalog, ParseContext& ctx) {
  TransformSettings transform;
  transform.project_dir = ResolvePath(ctx, "transform");
  if (table != nullptr) {
    TableReader r(*table, "[project.transform]", ctx.problems);
    if (auto dir = r.String("project_dir")) {
      transform.project_dir = ResolvePath(ctx, *dir);
      ReportFolder(r, "project_dir", *dir, WhyNotOwnFolder(ctx, transform.project_dir),
                   "the transform would run on it as its SQLMesh project");
    }
    if (auto command = r.StringList("command")) {
      if (command->empty() || command->front().empty()) {
        r.Report("command", "'command' must name a program", "e.g. command = [\"sqlmesh\", ...]");
      }
      transform.command = *command;
    }
    ParseTrinoGateway(r, transform, rest_catalog, ctx);
    r.ReportUnknownKeys();
  }
  if (transform.command.empty()) {
    transform.command = {"sqlmesh", "-p",           transform.project_dir.string(),
                         "plan",    "--auto-apply", "--no-prompts"};
  }
  return transform;
}

HttpSettings ParseHttp(const toml::table* table, ParseContext& ctx) {
  HttpSettings http;
  if (table == nullptr) return http;
  TableReader r(*table, "[project.http]", ctx.problems);
  if (auto replay = r.String("replay")) {
    if (replay->empty()) {
      r.Report("replay", "'replay' must not be empty", "omit it for live HTTP");
    } else {
      http.replay_dir = ResolvePath(ctx, *replay);
      std::error_code ec;
      if (!std::filesystem::is_directory(*http.replay_dir, ec)) {
        r.Report("replay", "replay folder " + http.replay_dir->string() + " does not exist",
                 "point it at a folder of VCR recordings (relative paths resolve against the "
                 "config file's folder)");
      }
    }
  }
  ReadTimeoutsAndRetries(r, http);
  if (auto agent = r.String("user_agent")) http.user_agent = *agent;
  if (auto verify = r.Bool("verify_tls")) http.verify_tls = *verify;
  r.ReportUnknownKeys();
  return http;
}

}  // namespace

ProjectSettings ParseProject(const toml::table* project, ParseContext& ctx) {
  ProjectSettings settings;
  settings.config_dir = ctx.config_dir;
  settings.state_dir = ResolvePath(ctx, ".databox");
  static const toml::table kEmpty;
  TableReader r(project != nullptr ? *project : kEmpty, "[project]", ctx.problems);
  if (auto name = r.String("name")) settings.name = *name;
  if (auto state_dir = r.String("state_dir")) {
    if (state_dir->empty()) r.Report("state_dir", "'state_dir' must not be empty");
    settings.state_dir = ResolvePath(ctx, *state_dir);
    ReportFolder(
        r, "state_dir", *state_dir, WhyNotStateFolder(ctx, settings.state_dir),
        "databox would write catalog.sqlite, warehouse/, loads/ and locks/ into it and make "
        "it owner-only");
  }
  constexpr int kMaxKeptPackages = 100000;
  settings.keep_load_packages = static_cast<int>(
      r.Int("keep_load_packages", 1, kMaxKeptPackages).value_or(settings.keep_load_packages));
  settings.max_workers =
      static_cast<int>(r.Int("max_workers", 1, kMaxWorkers).value_or(settings.max_workers));
  settings.catalog = ParseCatalog(r.Table("catalog"), settings.state_dir, ctx);
  settings.warehouse = ParseWarehouse(r.Table("warehouse"), settings.state_dir, ctx);
  settings.analytics = ParseAnalytics(r.Table("analytics"), settings.state_dir, ctx);
  settings.transform =
      ParseTransform(r.Table("transform"), settings.catalog.type == CatalogType::kRest, ctx);
  settings.http = ParseHttp(r.Table("http"), ctx);
  r.ReportUnknownKeys();
  return settings;
}

}  // namespace databox::registry::internal
