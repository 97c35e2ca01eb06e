#include "catalog/rest/rest_catalog.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "common/failpoint.h"
#include "common/redact.h"
#include "iceberg/metadata/metadata_json.h"

namespace databox::catalog::rest {
namespace {

bool CreatesTable(std::span<const iceberg::TableCommit> commits) {
  return std::ranges::any_of(commits, [](const iceberg::TableCommit& commit) {
    return std::ranges::any_of(commit.requirements, [](const iceberg::TableRequirement& r) {
      return std::holds_alternative<iceberg::AssertCreate>(r);
    });
  });
}

// How servers that cannot create a table inside a transaction answer one that tries: the
// reference adapter loads every table first (404), Polaris rejects the staged create (400).
// Neither applies anything. A 409 or a 5xx is not a refusal of the shape.
bool RefusesCreatesInTransactions(const Error& error) {
  return error.kind == ErrorKind::kNotFound || error.kind == ErrorKind::kData;
}

using nlohmann::json;

constexpr const char* kAccessDelegationHeader = "X-Iceberg-Access-Delegation";
constexpr const char* kNamespaceExistsEndpoint = "HEAD /v1/{prefix}/namespaces/{namespace}";
constexpr const char* kTableExistsEndpoint =
    "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}";

json IdentifierJson(const iceberg::TableIdentifier& table) {
  return {{"namespace", table.ns}, {"name", table.name}};
}

//! `commit` as the spec's CommitTableRequest, its table named `on_server`.
json CommitJson(const iceberg::TableCommit& commit, const iceberg::TableIdentifier& on_server) {
  json requirements = json::array();
  for (const auto& requirement : commit.requirements) {
    requirements.push_back(iceberg::TableRequirementToJson(requirement));
  }
  json updates = json::array();
  for (const auto& update : commit.updates) updates.push_back(iceberg::TableUpdateToJson(update));
  return {{"identifier", IdentifierJson(on_server)},
          {"requirements", std::move(requirements)},
          {"updates", std::move(updates)}};
}

Result<json> ParseJson(const std::string& body, std::string_view what) {
  auto parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return MakeError(ErrorKind::kData,
                     Redact(std::string(what) + ": the catalog answered with malformed JSON"));
  }
  return parsed;
}

std::map<std::string, std::string> StringMap(const json& object) {
  std::map<std::string, std::string> out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items()) {
    if (value.is_string()) out[key] = value.get<std::string>();
  }
  return out;
}

Result<iceberg::Namespace> NamespaceFromJson(const json& value, std::string_view what) {
  if (!value.is_array()) {
    return MakeError(ErrorKind::kData, std::string(what) + ": a namespace is not a JSON array");
  }
  iceberg::Namespace ns;
  for (const auto& level : value) {
    if (!level.is_string()) {
      return MakeError(ErrorKind::kData, std::string(what) + ": a namespace level is not a string");
    }
    ns.push_back(level.get<std::string>());
  }
  return ns;
}

//! What SeaweedFS's catalog answers (400) to a table name that starts with '_'.
constexpr std::string_view kNameStartRefusal = "start with a letter or digit";

}  // namespace

Result<iceberg::TableIdentifier> RestCatalog::OnServer(
    const iceberg::TableIdentifier& table) const {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateTableIdentifier(table));
  return options_.table_names.ToServer(table);
}

Error RestCatalog::ExplainNameRefusal(Error error, const iceberg::TableIdentifier& table) const {
  // A HEAD's 400 carries no reason ("(HTTP 400)"); every other answer must give SeaweedFS's.
  const bool refused = error.kind == ErrorKind::kData &&
                       (error.message.find(kNameStartRefusal) != std::string::npos ||
                        error.message.find("(HTTP 400)") != std::string::npos);
  if (!refused || options_.table_names.Maps() || !table.name.starts_with('_')) return error;
  return Error{ErrorKind::kConfig,
               error.message +
                   "; the catalog server refuses table names that do not start "
                   "with a letter or digit (SeaweedFS's catalog, AWS S3 Tables): "
                   "set [project.catalog] underscore_table_prefix = \"dbx\" to "
                   "store " +
                   table.name + " as dbx" + table.name + " (docs/registry.md)"};
}

Result<std::unique_ptr<RestCatalog>> RestCatalog::Open(RestCatalogOptions options,
                                                       std::shared_ptr<http::Transport> transport) {
  if (options.uri.empty()) {
    return MakeError(ErrorKind::kConfig, "the REST catalog needs a base uri");
  }
  while (options.uri.ends_with('/')) options.uri.pop_back();
  std::optional<OAuth2Tokens> tokens;
  if (!options.client_id.empty() || !options.client_secret.empty()) {
    OAuth2Settings oauth{.token_url = options.oauth2_server_uri.empty()
                                          ? options.uri + "/v1/oauth/tokens"
                                          : options.oauth2_server_uri,
                         .client_id = options.client_id,
                         .client_secret = options.client_secret,
                         .scope = options.scope,
                         .realm_header = kPolarisRealmHeader,
                         .realm = options.realm};
    DATABOX_ASSIGN_OR_RETURN(auto made, OAuth2Tokens::Make(std::move(oauth), options.clock));
    tokens.emplace(std::move(made));
  }
  std::optional<http::HttpClient> client;
  if (transport) {
    client.emplace(http::HttpClient::WithTransport(std::move(transport), options.http));
  } else {
    DATABOX_ASSIGN_OR_RETURN(auto curl, http::HttpClient::Make(options.http));
    client.emplace(std::move(curl));
  }
  std::unique_ptr<RestCatalog> catalog(
      new RestCatalog(std::move(options), std::move(*client), std::move(tokens)));
  DATABOX_RETURN_IF_ERROR(catalog->LoadConfig());
  return catalog;
}

Result<http::Response> RestCatalog::Send(http::Request request) {
  std::lock_guard lock(mutex_);
  request.allow_error_status = true;
  request.headers.Set("Accept", "application/json");
  if (!request.body.empty()) request.headers.Set("Content-Type", "application/json");
  if (!options_.realm.empty()) request.headers.Set(kPolarisRealmHeader, options_.realm);
  if (!tokens_) {
    if (!options_.bearer_token.empty()) {
      request.headers.Set("Authorization", "Bearer " + options_.bearer_token);
    } else if (options_.sigv4) {
      DATABOX_RETURN_IF_ERROR(
          http::SignRequest(request, *options_.sigv4, std::chrono::system_clock::now()));
    }
    return client_.Send(std::move(request));
  }
  for (int attempt = 0;; ++attempt) {
    DATABOX_ASSIGN_OR_RETURN(std::string token, tokens_->Token(client_));
    http::Request copy = request;
    copy.headers.Set("Authorization", "Bearer " + token);
    auto response = client_.Send(std::move(copy));
    if (!response || response->status != 401 || attempt > 0) return response;
    tokens_->Invalidate();  // expired or revoked early: one more try with a new token
  }
}

Result<http::Response> RestCatalog::Call(http::Method method, std::string url, std::string body,
                                         RestOp op, std::string_view what,
                                         bool delegate_credentials) {
  http::Request request;
  request.method = method;
  request.url = std::move(url);
  request.body = std::move(body);
  if (delegate_credentials && options_.vended_credentials) {
    request.headers.Set(kAccessDelegationHeader, "vended-credentials");
  }
  // Errors name the dependency and the request (a transport error's message already has it).
  const std::string request_text =
      std::string(http::MethodName(method)) + " " + RedactUrl(request.url);
  auto response = Send(std::move(request));
  if (!response) {
    return std::unexpected(
        ErrorFromTransport(response.error(), op, std::string(what) + " at the catalog"));
  }
  if (!response->ok()) {
    return std::unexpected(ErrorFromResponse(
        *response, op, std::string(what) + " at the catalog (" + request_text + ")"));
  }
  return response;
}

Status RestCatalog::LoadConfig() {
  const std::string what = "reading the catalog configuration from " + RedactUrl(options_.uri) +
                           " (warehouse '" + options_.warehouse + "')";
  DATABOX_ASSIGN_OR_RETURN(
      auto response, Call(http::Method::kGet, RestPaths::Config(options_.uri, options_.warehouse),
                          "", RestOp::kRead, what));
  DATABOX_ASSIGN_OR_RETURN(json body, ParseJson(response.body, what));
  config_.defaults = StringMap(body.value("defaults", json::object()));
  config_.overrides = StringMap(body.value("overrides", json::object()));
  if (auto it = body.find("endpoints"); it != body.end() && it->is_array()) {
    for (const auto& endpoint : *it) {
      if (endpoint.is_string()) config_.endpoints.push_back(endpoint.get<std::string>());
    }
  }
  if (auto it = config_.overrides.find("prefix"); it != config_.overrides.end()) {
    config_.prefix = it->second;
  } else if (auto def = config_.defaults.find("prefix"); def != config_.defaults.end()) {
    config_.prefix = def->second;
  }
  std::string base = options_.uri;
  if (auto it = config_.overrides.find("uri");
      it != config_.overrides.end() && !it->second.empty()) {
    base = it->second;
  }
  paths_ = RestPaths(base, config_.prefix);
  return Ok();
}

bool RestCatalog::KeepsHistoryOutsideMetadata() const {
  auto nessie = [](const std::map<std::string, std::string>& settings) {
    return std::ranges::any_of(settings,
                               [](const auto& kv) { return kv.first.starts_with("nessie."); });
  };
  return nessie(config_.defaults) || nessie(config_.overrides);
}

bool RestCatalog::SupportsEndpoint(std::string_view endpoint) const {
  return config_.endpoints.empty() ||
         std::ranges::find(config_.endpoints, endpoint) != config_.endpoints.end();
}

std::vector<StorageCredential> RestCatalog::StorageCredentials(
    const iceberg::TableIdentifier& table) const {
  std::lock_guard lock(credentials_mutex_);
  auto it = credentials_.find(table.ToString());
  return it == credentials_.end() ? std::vector<StorageCredential>{} : it->second;
}

Result<bool> RestCatalog::Exists(std::string url, std::string_view endpoint,
                                 std::string_view what) {
  http::Request request;
  request.method = SupportsEndpoint(endpoint) ? http::Method::kHead : http::Method::kGet;
  request.url = std::move(url);
  auto response = Send(std::move(request));
  if (!response) return std::unexpected(ErrorFromTransport(response.error(), RestOp::kRead, what));
  if (response->status == 404) return false;
  if (!response->ok()) return std::unexpected(ErrorFromResponse(*response, RestOp::kRead, what));
  return true;
}

Status RestCatalog::ListPaged(const std::string& url, std::string_view what,
                              const std::function<Status(const json&)>& page) {
  std::string next;
  for (bool first = true; first || !next.empty(); first = false) {
    std::string page_url = url;
    if (!next.empty()) page_url = AppendQuery(std::move(page_url), "pageToken", next);
    if (options_.page_size) {
      page_url = AppendQuery(std::move(page_url), "pageSize", std::to_string(*options_.page_size));
    }
    DATABOX_ASSIGN_OR_RETURN(auto response,
                             Call(http::Method::kGet, page_url, "", RestOp::kRead, what));
    DATABOX_ASSIGN_OR_RETURN(json body, ParseJson(response.body, what));
    DATABOX_RETURN_IF_ERROR(page(body));
    const auto it = body.find("next-page-token");
    std::string token = it != body.end() && it->is_string() ? it->get<std::string>() : "";
    if (!token.empty() && token == next) {
      return MakeError(ErrorKind::kData,
                       std::string(what) + ": the catalog returned the same page token twice");
    }
    next = std::move(token);
  }
  return Ok();
}

Status RestCatalog::CreateNamespace(const iceberg::Namespace& ns,
                                    const iceberg::Properties& properties) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  json body = {{"namespace", ns}, {"properties", properties}};
  DATABOX_ASSIGN_OR_RETURN(
      auto response, Call(http::Method::kPost, paths_.Namespaces(), body.dump(), RestOp::kCreate,
                          "creating namespace " + iceberg::NamespaceToString(ns)));
  (void)response;
  return Ok();
}

Result<std::vector<iceberg::Namespace>> RestCatalog::ListNamespaces(
    const iceberg::Namespace& parent) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(parent, /*allow_root=*/true));
  std::string url = paths_.Namespaces();
  if (!parent.empty()) url = AppendQuery(std::move(url), "parent", EncodeNamespace(parent), true);
  const std::string what = "listing namespaces under '" + iceberg::NamespaceToString(parent) + "'";
  std::vector<iceberg::Namespace> out;
  DATABOX_RETURN_IF_ERROR(ListPaged(url, what, [&](const json& page) -> Status {
    const auto it = page.find("namespaces");
    if (it == page.end() || !it->is_array()) return Ok();
    for (const auto& entry : *it) {
      DATABOX_ASSIGN_OR_RETURN(iceberg::Namespace ns, NamespaceFromJson(entry, what));
      out.push_back(std::move(ns));
    }
    return Ok();
  }));
  std::ranges::sort(out);
  return out;
}

Result<bool> RestCatalog::NamespaceExists(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  return Exists(paths_.Namespace(ns), kNamespaceExistsEndpoint,
                "checking namespace " + iceberg::NamespaceToString(ns));
}

Result<iceberg::Properties> RestCatalog::LoadNamespaceProperties(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  const std::string what = "loading namespace " + iceberg::NamespaceToString(ns);
  DATABOX_ASSIGN_OR_RETURN(auto response,
                           Call(http::Method::kGet, paths_.Namespace(ns), "", RestOp::kRead, what));
  DATABOX_ASSIGN_OR_RETURN(json body, ParseJson(response.body, what));
  return StringMap(body.value("properties", json::object()));
}

Status RestCatalog::UpdateNamespaceProperties(const iceberg::Namespace& ns,
                                              std::span<const std::string> removals,
                                              const iceberg::Properties& updates) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  // The spec rejects a key that is both removed and set (422); "remove then set" is a set.
  json removed = json::array();
  for (const auto& key : removals) {
    if (!updates.contains(key)) removed.push_back(key);
  }
  json body = {{"removals", std::move(removed)}, {"updates", updates}};
  DATABOX_ASSIGN_OR_RETURN(
      auto response,
      Call(http::Method::kPost, paths_.NamespaceProperties(ns), body.dump(), RestOp::kUpdate,
           "updating properties of namespace " + iceberg::NamespaceToString(ns)));
  (void)response;
  return Ok();
}

Status RestCatalog::DropNamespace(const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  DATABOX_ASSIGN_OR_RETURN(auto response,
                           Call(http::Method::kDelete, paths_.Namespace(ns), "", RestOp::kDrop,
                                "dropping namespace " + iceberg::NamespaceToString(ns)));
  (void)response;
  return Ok();
}

Result<std::vector<iceberg::TableIdentifier>> RestCatalog::ListTables(
    const iceberg::Namespace& ns) {
  DATABOX_RETURN_IF_ERROR(iceberg::ValidateNamespace(ns));
  const std::string what = "listing tables of namespace " + iceberg::NamespaceToString(ns);
  std::vector<iceberg::TableIdentifier> out;
  DATABOX_RETURN_IF_ERROR(ListPaged(paths_.Tables(ns), what, [&](const json& page) -> Status {
    const auto it = page.find("identifiers");
    if (it == page.end() || !it->is_array()) return Ok();
    for (const auto& entry : *it) {
      if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) {
        return MakeError(ErrorKind::kData, what + ": a table identifier has no name");
      }
      DATABOX_ASSIGN_OR_RETURN(iceberg::Namespace table_ns,
                               NamespaceFromJson(entry.value("namespace", json::array()), what));
      out.push_back(options_.table_names.FromServer(
          iceberg::TableIdentifier{std::move(table_ns), entry["name"].get<std::string>()}));
    }
    return Ok();
  }));
  std::ranges::sort(out);
  return out;
}

Result<bool> RestCatalog::TableExists(const iceberg::TableIdentifier& table) {
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier on_server, OnServer(table));
  auto exists =
      Exists(paths_.Table(on_server), kTableExistsEndpoint, "checking table " + table.ToString());
  if (!exists) return std::unexpected(ExplainNameRefusal(exists.error(), table));
  return exists;
}

Result<iceberg::LoadedTable> RestCatalog::ParseLoadResult(const iceberg::TableIdentifier& table,
                                                          const std::string& body,
                                                          bool remember_credentials) {
  const std::string what = "reading the catalog's answer for table " + table.ToString();
  DATABOX_ASSIGN_OR_RETURN(json parsed, ParseJson(body, what));
  const auto metadata_json = parsed.find("metadata");
  if (metadata_json == parsed.end() || !metadata_json->is_object()) {
    return MakeError(ErrorKind::kData, what + ": no metadata object");
  }
  auto metadata = iceberg::TableMetadataFromJson(*metadata_json);
  if (!metadata) return std::unexpected(metadata.error().WithContext(what));
  iceberg::LoadedTable loaded;
  if (auto it = parsed.find("metadata-location"); it != parsed.end() && it->is_string()) {
    loaded.metadata_location = it->get<std::string>();
  }
  loaded.metadata = std::move(*metadata);
  if (remember_credentials) {
    auto credentials = ParseStorageCredentials(parsed, loaded.metadata.location);
    if (options_.on_credentials) {
      options_.on_credentials(table, loaded.metadata.location, credentials);
    }
    std::lock_guard lock(credentials_mutex_);
    credentials_[table.ToString()] = std::move(credentials);
  }
  return loaded;
}

Result<iceberg::LoadedTable> RestCatalog::LoadTable(const iceberg::TableIdentifier& table) {
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier on_server, OnServer(table));
  auto response = Call(http::Method::kGet, paths_.Table(on_server), "", RestOp::kRead,
                       "loading table " + table.ToString(), /*delegate=*/true);
  if (!response) return std::unexpected(ExplainNameRefusal(response.error(), table));
  return ParseLoadResult(table, response->body, /*remember_credentials=*/true);
}

Result<iceberg::LoadedTable> RestCatalog::PostCreate(
    const iceberg::TableIdentifier& table, const iceberg::Schema& schema,
    const iceberg::PartitionSpec& spec, const iceberg::SortOrder& sort_order,
    const iceberg::Properties& properties, const std::optional<std::string>& location, bool stage) {
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier on_server, OnServer(table));
  json body = {{"name", on_server.name},          {"schema", schema.ToJson()},
               {"partition-spec", spec.ToJson()}, {"write-order", sort_order.ToJson()},
               {"stage-create", stage},           {"properties", properties}};
  if (location) body["location"] = *location;
  auto response = Call(http::Method::kPost, paths_.Tables(table.ns), body.dump(), RestOp::kCreate,
                       (stage ? "stage-creating table " : "creating table ") + table.ToString(),
                       /*delegate=*/true);
  if (!response) return std::unexpected(ExplainNameRefusal(response.error(), table));
  auto loaded = ParseLoadResult(table, response->body, /*remember_credentials=*/true);
  if (loaded && !stage) Committed(std::span(&*loaded, 1), std::span(&table, 1));
  return loaded;
}

Result<iceberg::LoadedTable> RestCatalog::CreateTable(const iceberg::TableIdentifier& table,
                                                      const iceberg::Schema& schema,
                                                      const iceberg::PartitionSpec& spec,
                                                      const iceberg::SortOrder& sort_order,
                                                      const iceberg::Properties& properties,
                                                      std::optional<std::string> location) {
  return PostCreate(table, schema, spec, sort_order, properties, location, /*stage=*/false);
}

Result<iceberg::LoadedTable> RestCatalog::StageCreateTable(const iceberg::TableIdentifier& table,
                                                           const iceberg::Schema& schema,
                                                           const iceberg::PartitionSpec& spec,
                                                           const iceberg::SortOrder& sort_order,
                                                           const iceberg::Properties& properties,
                                                           std::optional<std::string> location) {
  return PostCreate(table, schema, spec, sort_order, properties, location, /*stage=*/true);
}

Result<iceberg::TableMetadata> RestCatalog::PrepareCreateTable(
    const iceberg::TableIdentifier& table, const iceberg::Schema& schema,
    const iceberg::PartitionSpec& spec, const iceberg::SortOrder& sort_order,
    const iceberg::Properties& properties) {
  DATABOX_ASSIGN_OR_RETURN(
      iceberg::LoadedTable staged,
      StageCreateTable(table, schema, spec, sort_order, properties, std::nullopt));
  return std::move(staged.metadata);
}

Result<iceberg::LoadedTable> RestCatalog::CommitTable(const iceberg::TableCommit& commit) {
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier on_server, OnServer(commit.identifier));
  Failpoint("before-catalog-swap");
  auto response =
      Call(http::Method::kPost, paths_.Table(on_server), CommitJson(commit, on_server).dump(),
           RestOp::kCommit, "committing table " + commit.identifier.ToString());
  if (!response) return std::unexpected(ExplainNameRefusal(response.error(), commit.identifier));
  auto loaded = ParseLoadResult(commit.identifier, response->body, /*remember_credentials=*/false);
  if (!loaded) {
    // The server accepted the commit; only its answer is unreadable.
    return MakeError(ErrorKind::kCommitStateUnknown,
                     loaded.error().message +
                         "; the commit was accepted (2xx): reconcile, keep the written files");
  }
  Committed(std::span(&*loaded, 1), std::span(&commit.identifier, 1));
  return loaded;
}

Result<std::vector<iceberg::LoadedTable>> RestCatalog::CommitTransaction(
    std::span<const iceberg::TableCommit> commits) {
  if (commits.empty()) return std::vector<iceberg::LoadedTable>{};
  json changes = json::array();
  std::string names;
  const iceberg::TableCommit* underscore = nullptr;  // a table whose name may be refused
  for (const auto& commit : commits) {
    DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier on_server, OnServer(commit.identifier));
    changes.push_back(CommitJson(commit, on_server));
    names += (names.empty() ? "" : ", ") + commit.identifier.ToString();
    if (underscore == nullptr && commit.identifier.name.starts_with('_')) underscore = &commit;
  }
  json body = {{"table-changes", std::move(changes)}};
  Failpoint("before-catalog-swap");
  auto response = Call(http::Method::kPost, paths_.TransactionCommit(), body.dump(),
                       RestOp::kCommit, "committing a transaction over " + names);
  if (!response) {
    // Only a refusal that gives SeaweedFS's reason: a bare 400 is how Polaris refuses creates.
    if (underscore != nullptr &&
        response.error().message.find(kNameStartRefusal) != std::string::npos) {
      return std::unexpected(ExplainNameRefusal(response.error(), underscore->identifier));
    }
    if (!CreatesTable(commits) || !RefusesCreatesInTransactions(response.error())) {
      return std::unexpected(response.error());
    }
    creates_in_transactions_ = false;
    return MakeError(ErrorKind::kConfig,
                     response.error().message +
                         "; the catalog server does not create tables inside a transaction, "
                         "nothing was applied: commit new tables one by one");
  }
  std::vector<iceberg::LoadedTable> out;
  for (const auto& commit : commits) {
    auto loaded = LoadTable(commit.identifier);
    if (!loaded) {
      return MakeError(ErrorKind::kCommitStateUnknown,
                       "the transaction over " + names + " was committed, but reloading " +
                           commit.identifier.ToString() + " failed (" + loaded.error().message +
                           "); reconcile, keep the written files");
    }
    out.push_back(std::move(*loaded));
  }
  std::vector<iceberg::TableIdentifier> identifiers;
  for (const auto& commit : commits) identifiers.push_back(commit.identifier);
  Committed(out, identifiers);
  return out;
}

Status RestCatalog::DropTable(const iceberg::TableIdentifier& table) {
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier on_server, OnServer(table));
  DATABOX_ASSIGN_OR_RETURN(
      auto response,
      Call(http::Method::kDelete, AppendQuery(paths_.Table(on_server), "purgeRequested", "false"),
           "", RestOp::kDrop, "dropping table " + table.ToString()));
  (void)response;
  std::lock_guard lock(credentials_mutex_);
  credentials_.erase(table.ToString());
  return Ok();
}

Status RestCatalog::RenameTable(const iceberg::TableIdentifier& from,
                                const iceberg::TableIdentifier& to) {
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier from_on_server, OnServer(from));
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier to_on_server, OnServer(to));
  json body = {{"source", IdentifierJson(from_on_server)},
               {"destination", IdentifierJson(to_on_server)}};
  DATABOX_ASSIGN_OR_RETURN(auto response,
                           Call(http::Method::kPost, paths_.Rename(), body.dump(), RestOp::kCreate,
                                "renaming table " + from.ToString() + " to " + to.ToString()));
  (void)response;
  return Ok();
}

Result<iceberg::LoadedTable> RestCatalog::RegisterTable(const iceberg::TableIdentifier& table,
                                                        std::string_view metadata_location) {
  DATABOX_ASSIGN_OR_RETURN(iceberg::TableIdentifier on_server, OnServer(table));
  json body = {{"name", on_server.name}, {"metadata-location", metadata_location}};
  auto response = Call(http::Method::kPost, paths_.Register(table.ns), body.dump(), RestOp::kCreate,
                       "registering table " + table.ToString());
  if (!response) return std::unexpected(ExplainNameRefusal(response.error(), table));
  auto loaded = ParseLoadResult(table, response->body, /*remember_credentials=*/true);
  if (loaded) Committed(std::span(&*loaded, 1), std::span(&table, 1));
  return loaded;
}

void RestCatalog::Committed(std::span<const iceberg::LoadedTable> tables,
                            std::span<const iceberg::TableIdentifier> names) const {
  if (!options_.on_committed || tables.empty()) return;
  std::vector<iceberg::TablePointer> committed;
  for (size_t i = 0; i < tables.size() && i < names.size(); ++i) {
    committed.push_back({names[i], tables[i].metadata_location});
  }
  options_.on_committed(committed);
}

}  // namespace databox::catalog::rest
