// The registry model: what databox.toml declares, after defaults are applied, paths are resolved
// against the config file's folder and ${ENV} secrets are resolved. See docs/registry.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/enum_names.h"
#include "common/write_disposition.h"
#include "registry/secret.h"
#include "registry/table_layout.h"

namespace databox::registry {

//! What every namespace a source loads into begins with.
inline constexpr std::string_view kRawNamespacePrefix = "raw_";
//! "raw_<source>": the Iceberg namespace the source named `source_name` loads into (also the
//! name `databox ingest` takes, and the schema SQLMesh reads).
inline std::string RawNamespace(std::string_view source_name) {
  return std::string(kRawNamespacePrefix) + std::string(source_name);
}

enum class CatalogType { kSql, kRest };
inline constexpr EnumNames<CatalogType, 2> kCatalogTypeNames{
    {{CatalogType::kSql, "sql"}, {CatalogType::kRest, "rest"}}};

//! Timeouts and retries of the HTTP client that talks to a dependency (the REST catalog, the
//! S3 store). The defaults are http::ClientOptions' defaults.
struct ServiceHttpSettings {
  double connect_timeout_s = 10;
  double timeout_s = 60;           //!< per attempt
  int retries = 4;                 //!< attempts after the first on retryable failures
  double backoff_initial_s = 0.5;  //!< first backoff; doubles with jitter up to backoff_max_s
  double backoff_max_s = 30;
};

//! Backups of the catalog's own database (`databox catalog backup`, docs/catalog_recovery.md).
struct CatalogBackupSettings {
  std::filesystem::path dir;   //!< where backups go; default <state_dir>/catalog-backups
  bool after_refresh = false;  //!< back up after every successful `databox refresh`
  int keep = 7;                //!< backups kept in `dir`; older ones are removed after a new one
  //! rest only: the catalog server's PostgreSQL database, postgresql://user@host:port/db
  //! (never with a password: that is `database_password`); empty = not configured.
  std::string database_url;
  Secret database_password;  //!< rest only: the password of database_url's user
};

//! Where table metadata is committed.
struct CatalogSettings {
  CatalogType type = CatalogType::kSql;
  std::string name = "databox_lake";  //!< catalog name (Iceberg JDBC catalog_name / REST prefix)
  std::string uri;        //!< sql: SQLite file path (default <state_dir>/catalog.sqlite);
                          //!< rest: base URI, e.g. http://127.0.0.1:8181/api/catalog
  std::string warehouse;  //!< rest only: warehouse (Polaris catalog name)
  Secret credential;      //!< rest only: "client_id:client_secret"
  //! rest only: a bearer token sent as is, for a catalog behind an identity provider that
  //! issues tokens itself (Nessie); exclusive with `credential`.
  Secret token;
  std::string scope;              //!< rest only: OAuth2 scope, e.g. PRINCIPAL_ROLE:ALL
  std::string oauth2_server_uri;  //!< rest only: token endpoint; empty = ask the catalog config
  std::string realm;              //!< rest only: Polaris realm header value; empty = default
  //! rest only: sign every request with AWS Signature V4 (AWS S3 Tables, AWS Glue, SeaweedFS),
  //! with the warehouse's S3 keys ([project.warehouse.s3] or DATABOX_AWS_*); exclusive with
  //! `credential` and `token`.
  bool sigv4 = false;
  std::string signing_name = "s3tables";  //!< rest + sigv4: the SigV4 service name
  std::string signing_region;             //!< rest + sigv4: empty = the warehouse's S3 region
  //! rest only: the catalog stores a table whose name starts with '_' as this prefix + the name
  //! (iceberg/spec/table_names.h), for servers that refuse such names (SeaweedFS, AWS S3 Tables);
  //! empty = names as they are.
  std::string underscore_table_prefix;
  ServiceHttpSettings http;      //!< rest only: the catalog client's timeouts and retries
  CatalogBackupSettings backup;  //!< backup_* keys
};

//! S3 settings used when the warehouse is an s3:// location.
struct S3Settings {
  std::string endpoint;  //!< empty = AWS; else e.g. http://127.0.0.1:9000
  std::string region = "us-east-1";
  bool path_style = false;  //!< path-style addressing (needed by most S3-compatible stores)
  Secret access_key_id;     //!< empty = vended credentials or the default chain
  Secret secret_access_key;
  Secret session_token;
  ServiceHttpSettings http;  //!< the S3 client's timeouts and retries
};

//! Where data files are written.
struct WarehouseSettings {
  std::string location;  //!< absolute local path or s3://bucket/prefix
  bool is_s3 = false;    //!< true when location starts with s3://
  S3Settings s3;
};

//! The DuckDB database that runs transformations and reads raw tables through the catalog.
struct AnalyticsSettings {
  std::filesystem::path database;             //!< default <state_dir>/databox.duckdb
  std::string catalog_alias = "polaris_aws";  //!< models say <alias>.raw_<source>.<table>
};

//! Where SQLMesh runs the models (docs/analytics.md).
enum class TransformGateway {
  kDuckDb,  //!< the local analytics DuckDB (default)
  kTrino,   //!< a Trino coordinator over the same REST catalog; state in PostgreSQL
};

//! The Trino gateway's settings ([project.transform] trino_* and state_* keys).
struct TrinoGatewaySettings {
  std::string uri;  //!< coordinator, http://host:port (or https://)
  std::string user = "databox";
  //! Trino catalog the models write to (their outputs and SQLMesh's physical tables); the raw
  //! tables are read through the Trino catalog named like [project.analytics] catalog_alias.
  std::string analytics_catalog = "databox_analytics";
  //! SQLMesh's state database, postgresql://user@host:port/db (never with a password).
  std::string state_url;
  Secret state_password;  //!< the password of state_url's user
};

//! The native transformation step run after every source succeeded.
struct TransformSettings {
  std::filesystem::path project_dir;  //!< SQLMesh project, default <config dir>/transform
  std::vector<std::string>
      command;  //!< argv; default sqlmesh -p <project_dir> plan --auto-apply --no-prompts
  TransformGateway gateway = TransformGateway::kDuckDb;
  TrinoGatewaySettings trino;  //!< gateway = trino only
};

//! HTTP behaviour shared by every source (a source may override timeouts and retries).
struct HttpSettings {
  std::optional<std::filesystem::path>
      replay_dir;  //!< set: answer requests from VCR recordings only
  double connect_timeout_s = 10;
  double timeout_s = 60;
  int retries = 5;               //!< attempts after the first on retryable failures
  double backoff_initial_s = 1;  //!< first backoff; doubles with jitter up to backoff_max_s
  double backoff_max_s = 30;
  std::string user_agent = "databox/0.1";
  //! Verify TLS certificates and host names of https sources (opt out only for a test server
  //! with a self-signed certificate: `verify_tls = false`).
  bool verify_tls = true;
};

struct ProjectSettings {
  std::string name = "databox";
  std::filesystem::path
      config_dir;  //!< folder of databox.toml (absolute); relative paths resolve here
  std::filesystem::path state_dir;  //!< absolute; default <config dir>/.databox
  CatalogSettings catalog;
  WarehouseSettings warehouse;
  AnalyticsSettings analytics;
  TransformSettings transform;
  HttpSettings http;
  int max_workers = 4;          //!< sources loaded concurrently in a refresh
  int keep_load_packages = 20;  //!< load packages kept per source (load/load_package.h)
};

enum class Eligibility {
  kRoutine,   //!< part of every refresh
  kExplicit,  //!< runs only when named (and, for targeted sources, given targets)
};
inline constexpr EnumNames<Eligibility, 2> kEligibilityNames{
    {{Eligibility::kRoutine, "routine"}, {Eligibility::kExplicit, "explicit"}}};

enum class SourceKind {
  kRestJson,  //!< HTTP API: paths + params per resource, JSON (or RDB text) responses, pagination
  kFile,      //!< one pinned file download, validated before anything is published
  kTargeted,  //!< HTTP API driven by a caller-supplied target list (refuses to run without one)
};
inline constexpr EnumNames<SourceKind, 3> kSourceKindNames{{{SourceKind::kRestJson, "rest_json"},
                                                            {SourceKind::kFile, "file"},
                                                            {SourceKind::kTargeted, "targeted"}}};

enum class AuthType { kNone, kHeader, kQuery, kBearer };
inline constexpr EnumNames<AuthType, 4> kAuthTypeNames{{{AuthType::kNone, "none"},
                                                        {AuthType::kHeader, "header"},
                                                        {AuthType::kQuery, "query"},
                                                        {AuthType::kBearer, "bearer"}}};

struct AuthSettings {
  AuthType type = AuthType::kNone;
  std::string name;  //!< header name (kHeader) or query parameter name (kQuery)
  Secret secret;     //!< from "${ENV_VAR}"
};

//! Date window, split into chunks; resources use it through {start}/{end} placeholders.
struct WindowSettings {
  std::optional<std::string> start;  //!< fixed ISO date (pins a run, e.g. to a recording)
  std::optional<std::string> end;    //!< fixed ISO date; default today (UTC)
  int days_back = 30;                //!< used when start is not fixed: start = end - days_back
  int chunk_days = 365;              //!< max days per request
};

enum class PaginationType {
  kNone,
  kOffsetLimit,  //!< limit/offset until a short/empty page, offset >= total, or max_records
  kPageNumber,   //!< page=1..num_pages until a short page or max_records
  kCursor,       //!< follow a next link / cursor found in the response
};
inline constexpr EnumNames<PaginationType, 4> kPaginationTypeNames{
    {{PaginationType::kNone, "none"},
     {PaginationType::kOffsetLimit, "offset_limit"},
     {PaginationType::kPageNumber, "page_number"},
     {PaginationType::kCursor, "cursor"}}};

struct Pagination {
  PaginationType type = PaginationType::kNone;
  std::string limit_param = "limit";    //!< offset_limit: page size parameter
  std::string offset_param = "offset";  //!< offset_limit
  std::string total_path;               //!< offset_limit: dotted path of the total count
  std::string end_flag_path;            //!< offset_limit: dotted path of an "end reached" bool
  std::string page_param = "page";      //!< page_number
  std::string page_size_param;          //!< page_number: e.g. per_page
  std::string num_pages_path;           //!< page_number: dotted path of the page count
  int start_page = 1;                   //!< page_number
  std::string next_path;                //!< cursor: dotted path of the next URL or cursor
  std::string cursor_param;             //!< cursor: query parameter for a cursor value;
                                        //!< empty = next_path holds a full URL
  int page_size = 100;                  //!< records requested per page
  std::optional<int64_t> max_records;   //!< stop after this many records
};

using ::databox::WriteDisposition;
enum class DuplicatePolicy {
  kLastWins,   //!< keep the last record with a key within one batch
  kFirstWins,  //!< keep the first record with a key within one batch (later ones dropped)
  kReject,     //!< fail the load if a batch holds duplicate keys
};
inline constexpr EnumNames<DuplicatePolicy, 3> kDuplicatePolicyNames{
    {{DuplicatePolicy::kLastWins, "last_wins"},
     {DuplicatePolicy::kFirstWins, "first_wins"},
     {DuplicatePolicy::kReject, "reject"}}};

//! How a merge removes the rows it replaces (Iceberg's write.merge.mode).
enum class MergeMode {
  kCopyOnWrite,  //!< rewrite the data files that hold replaced rows
  kMergeOnRead,  //!< write position delete files for them; readers apply them
};
inline constexpr EnumNames<MergeMode, 2> kMergeModeNames{
    {{MergeMode::kCopyOnWrite, "copy-on-write"}, {MergeMode::kMergeOnRead, "merge-on-read"}}};

enum class ResponseFormat { kJson, kNdjson, kRdb, kCsv, kTsv, kXlsx };
inline constexpr EnumNames<ResponseFormat, 6> kResponseFormatNames{
    {{ResponseFormat::kJson, "json"},
     {ResponseFormat::kNdjson, "ndjson"},
     {ResponseFormat::kRdb, "rdb"},
     {ResponseFormat::kCsv, "csv"},
     {ResponseFormat::kTsv, "tsv"},
     {ResponseFormat::kXlsx, "xlsx"}}};

//! A hint that overrides type inference for one output column. Types are dlt's:
//! text, bigint, double, bool, timestamp, date, time, decimal, binary, json.
struct ColumnHint {
  std::string type;
  std::optional<bool> nullable;  //!< unset = inferred
  int line = 0;                  //!< where declared, for messages
};

//! A second request sequence of a resource that takes a share of its max_records: with
//! max_records >= min_total, min(cap, max_records / divisor) records are requested with `params`
//! added, and the main sequence gets the rest. Rows of both are de-duplicated by primary key.
struct ReservedQuery {
  std::map<std::string, std::string> params;  //!< added to the refined query's params
  int64_t divisor = 10;                       //!< reserved share: max_records / divisor ...
  int64_t cap = 300;                          //!< ... but at most this many records ...
  int64_t min_total = 600;                    //!< ... and only when max_records is at least this
};

//! A refinement of a resource's query switched on by a boolean (usually an operator knob,
//! `when = "${NAME:-false}"`): extra params on every request, and optionally a reserved query.
//! Kept in the model only when switched on.
struct Refinement {
  std::map<std::string, std::string> params;  //!< merged over the resource's params
  std::optional<ReservedQuery> reserve;
};

//! One resource: requests, how to find records, and the table(s) it writes.
struct Resource {
  std::string name;                           //!< table name of the root table
  bool enabled = true;                        //!< false: declared (tables listed) but not loaded
  std::string path;                           //!< appended to base_url; may hold {placeholders}
  std::map<std::string, std::string> params;  //!< merged over the source's params
  std::map<std::string, std::string> headers;
  ResponseFormat format = ResponseFormat::kJson;
  std::string records_path;  //!< dotted selector into the response ("" = whole response; an
                             //!< array yields one record per element; "$" = whole response as one)
  std::string error_path;    //!< dotted path; if present in a response the source fails
  Pagination pagination;
  std::optional<int> chunk_days;  //!< overrides the source window's chunk_days
  std::vector<std::string> primary_key;
  std::string primary_key_at;  //!< "file:line" of primary_key, for the load's messages
  WriteDisposition write_disposition = WriteDisposition::kAppend;
  DuplicatePolicy merge_duplicates = DuplicatePolicy::kLastWins;
  //! unset: the table's write.merge.mode property (copy-on-write when it has none)
  std::optional<MergeMode> merge_mode;
  std::map<std::string, ColumnHint> columns;  //!< output column name -> hint
  //! The order of the hinted columns in the table, when it matters (a source's own tables, such
  //! as USFWS's); empty: by name. Never read from the registry file.
  std::vector<std::string> column_order;
  std::string transform;  //!< DuckDB SQL over relation `records(record JSON)`; empty = identity
  std::vector<std::string> child_tables;      //!< normalized child tables, "<name>__<field>"
  std::optional<int64_t> max_response_bytes;  //!< refuse larger responses
  std::optional<Refinement> refine;           //!< set when [source.resource.refine] is on
  //! The root table's partition spec (registry/table_layout.h); empty = unpartitioned. Used
  //! when the table is created; a table that exists keeps the spec it has.
  std::vector<PartitionTerm> partition;
  std::vector<SortTerm> sort;  //!< the root table's sort order; empty = unsorted
  int line = 0;                //!< where declared, for messages
};

//! A pinned file (kind = file): fetched, validated, then published atomically.
struct FileSettings {
  std::string url;
  //! The one allowed redirect target without its query: the 302 must point to exactly this URL
  //! plus a presigned S3 query (the signed URL is never logged). Empty: no redirect.
  std::string redirect_url;
  std::optional<int64_t> size_bytes;
  std::string md5;
  std::string sheet;                              //!< xlsx: the one expected sheet
  std::optional<int64_t> row_count;               //!< exact expected data rows
  std::map<std::string, std::string> provenance;  //!< doi, version, license, ... added as columns
};

//! Caller-supplied targets (kind = targeted).
struct TargetSettings {
  int max_targets = 500;
  std::string code_pattern = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$";
  int max_text_chars = 300;
  int max_images_per_target = 500;  //!< 1..500: more search results for one target abort the run
  int request_max_attempts = 6;     //!< 1..6: tries per request (first one included)
  int detail_workers = 3;           //!< 1..4: detail pages fetched in parallel
  std::string contact;  //!< named in the User-Agent of live requests (e.g. an e-mail address)
};

struct Source {
  std::string name;  //!< ^[a-z][a-z0-9]*(_[a-z0-9]+)*$
  std::string description;
  Eligibility eligibility = Eligibility::kRoutine;
  SourceKind kind = SourceKind::kRestJson;
  std::string base_url;
  AuthSettings auth;
  std::map<std::string, std::string> params;   //!< sent with every request
  std::map<std::string, std::string> headers;  //!< sent with every request
  //! Hosts of other origins a redirect may lead to; followed without credentials.
  std::vector<std::string> redirect_hosts;
  std::map<std::string, std::string> vars;  //!< values for {placeholders} in paths and params
  double pause_s = 0;                       //!< pause between requests
  std::optional<double> timeout_s;          //!< overrides project http.timeout_s
  std::optional<int> retries;               //!< overrides project http.retries
  std::optional<double> backoff_initial_s;
  std::optional<double> backoff_max_s;
  std::optional<WindowSettings> window;
  std::optional<FileSettings> file;
  std::optional<TargetSettings> targets;
  std::vector<Resource> resources;
  //! Where this source's HTTP is answered from: the source's own `replay` folder, else
  //! <[project.http] replay>/<name>; unset = live (also when the source says replay = false).
  std::optional<std::filesystem::path> replay_dir;
  //! Run live and write every exchange as a cassette into replay_dir (`databox run --record`).
  //! Never read from the registry file.
  bool record = false;
  int line = 0;  //!< where declared, for messages

  //! True when requests are answered from recordings (secrets may then be absent).
  bool replay() const { return replay_dir.has_value() && !record; }
  //! RawNamespace(name): the Iceberg namespace this source loads into.
  std::string Namespace() const { return RawNamespace(name); }
  //! Every table this source writes: each resource and its child tables, in declaration order.
  std::vector<std::string> Tables() const;
};

//! Where and what `databox publish` publishes ([publish], docs/publish.md).
struct PublishSettings {
  std::string to;      //!< s3://bucket/prefix or an absolute local folder; empty = only --to
  bool is_s3 = false;  //!< true when `to` starts with s3://
  S3Settings s3;       //!< [publish.s3]: the target's endpoint and keys
  //! Raw namespaces published whole (raw_<source>); with `tables` empty and this empty, every one.
  std::vector<std::string> namespaces;
  std::vector<std::string> tables;  //!< raw tables as namespace.table, beside `namespaces`
  //! Transform models as schema.name; nullopt = every model; empty = none.
  std::optional<std::vector<std::string>> models;
  int keep = 3;  //!< versions kept at the target, the current one included
};

struct Registry {
  std::filesystem::path config_path;  //!< absolute path of the loaded file
  ProjectSettings project;
  //! The [publish] section; nullopt when the registry has none.
  std::optional<PublishSettings> publish;
  std::vector<Source> sources;

  //! The source with this name, or nullptr.
  const Source* FindSource(std::string_view name) const;
  //! Every source's name, in declaration order.
  std::vector<std::string> SourceNames() const;
  //! Sources in declaration order that run in a routine refresh.
  std::vector<const Source*> RoutineSources() const;
  //! True when [project.http] replay is set (a source may still opt out: Source::replay()).
  bool replay() const { return project.http.replay_dir.has_value(); }
};

//! Printable names of the enums (as written in the file).
constexpr std::string_view ToString(CatalogType v) { return NameOf(kCatalogTypeNames, v); }
constexpr std::string_view ToString(Eligibility v) { return NameOf(kEligibilityNames, v); }
constexpr std::string_view ToString(SourceKind v) { return NameOf(kSourceKindNames, v); }
constexpr std::string_view ToString(AuthType v) { return NameOf(kAuthTypeNames, v); }
constexpr std::string_view ToString(PaginationType v) { return NameOf(kPaginationTypeNames, v); }
constexpr std::string_view ToString(WriteDisposition v) { return WriteDispositionName(v); }
constexpr std::string_view ToString(DuplicatePolicy v) { return NameOf(kDuplicatePolicyNames, v); }
constexpr std::string_view ToString(MergeMode v) { return NameOf(kMergeModeNames, v); }
constexpr std::string_view ToString(ResponseFormat v) { return NameOf(kResponseFormatNames, v); }

}  // namespace databox::registry
