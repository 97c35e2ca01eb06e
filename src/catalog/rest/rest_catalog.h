// RestCatalog: the Iceberg REST catalog client (Apache Polaris in production; any server
// speaking open-api/rest-catalog-open-api.yaml). Open() asks GET /v1/config?warehouse=... for
// the prefix, defaults/overrides and the endpoint list; with a credential every request
// carries an OAuth2 client-credentials bearer token (oauth2.h), with `sigv4` every request is
// signed with AWS Signature V4 (http/sigv4_request.h: AWS S3 Tables, AWS Glue, SeaweedFS), and
// without either (the FALLBACK test server) it carries no authentication.
//
// Commits: POST .../tables/{table} with requirements + updates, or POST
// /v1/{prefix}/transactions/commit for several tables. 409 (and the 400 with which Polaris
// <= 1.7.0 answers some lost races) is kConflict: reload, re-plan, retry. A 5xx, timeout or
// transport failure on a commit is kCommitStateUnknown and the commit is never resent.
//
// Thread-safe: requests are serialised over one HTTP client.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog/rest/oauth2.h"
#include "catalog/rest/rest_error.h"
#include "catalog/rest/rest_paths.h"
#include "catalog/rest/storage_credentials.h"
#include "http/client.h"
#include "http/sigv4_request.h"
#include "iceberg/commit/catalog.h"

namespace databox::catalog::rest {

//! The realm header Polaris reads (its default realm-context header name).
inline constexpr const char* kPolarisRealmHeader = "Polaris-Realm";
//! Scope requested when none is configured: all of the principal's roles (Polaris).
inline constexpr const char* kDefaultScope = "PRINCIPAL_ROLE:ALL";

struct RestCatalogOptions {
  std::string name;           //!< the catalog's name in databox (Catalog::Name)
  std::string uri;            //!< base URI, e.g. http://127.0.0.1:8181/api/catalog
  std::string warehouse;      //!< ?warehouse= for /v1/config (Polaris: the catalog name)
  std::string client_id;      //!< empty = no authentication
  std::string client_secret;  //!< never logged
  //! Without client_id: sent as `Authorization: Bearer <token>` on every request (a token an
  //! identity provider issued, e.g. for Nessie); never logged. Empty = no authentication.
  std::string bearer_token;
  //! Without client_id and bearer_token: every request is signed with AWS Signature V4 with
  //! these keys, region and signing name (secrets: never logged).
  std::optional<http::AwsSigning> sigv4;
  std::string scope = kDefaultScope;
  std::string oauth2_server_uri;   //!< empty = <uri>/v1/oauth/tokens (Polaris' token endpoint)
  std::string realm;               //!< Polaris realm; empty = the server's default realm
  bool vended_credentials = true;  //!< ask for X-Iceberg-Access-Delegation: vended-credentials
  std::optional<int> page_size;    //!< pageSize for list calls; the server's default when unset
  //! The server's names for databox's tables (iceberg/spec/table_names.h): every request names a
  //! table by table_names.ToServer, every listing is read back with FromServer.
  iceberg::TableNames table_names;
  http::ClientOptions http;
  OAuth2Tokens::Clock clock;  //!< token expiry clock; steady_clock when null (tests inject one)
  //! Told what every table load, create and stage-create vended (an empty list when nothing),
  //! with the table's location, so storage can use them for that table's files. Called on the
  //! requesting thread with no lock held; may be null.
  std::function<void(const iceberg::TableIdentifier& table, const std::string& location,
                     const std::vector<StorageCredential>& credentials)>
      on_credentials;
  //! Told the metadata file of every table a commit, create or register the server accepted,
  //! after its answer (a transaction's tables together), so the caller can leave evidence of the
  //! commit in the warehouse (iceberg/commit/commit_marker.h). Called on the committing thread; may
  //! be null.
  std::function<void(std::span<const iceberg::TablePointer> committed)> on_committed;
};

//! What GET /v1/config answered.
struct RestConfig {
  std::map<std::string, std::string> defaults;
  std::map<std::string, std::string> overrides;
  std::vector<std::string> endpoints;  //!< "METHOD /v1/{prefix}/..."; empty = not advertised
  std::string prefix;                  //!< overrides.prefix (else defaults.prefix)
};

class RestCatalog final : public iceberg::Catalog {
 public:
  //! The register endpoint as /v1/config lists it (RegisterTable; catalog recovery asks
  //! SupportsEndpoint before writing anything).
  static constexpr std::string_view kRegisterEndpoint =
      "POST /v1/{prefix}/namespaces/{namespace}/register";

  //! Authenticates (if configured) and reads the configuration. `transport` replaces libcurl
  //! (tests). kConfig for missing settings, kAuth/kNetwork when the server refuses or is away.
  static Result<std::unique_ptr<RestCatalog>> Open(
      RestCatalogOptions options, std::shared_ptr<http::Transport> transport = nullptr);

  const RestConfig& config() const { return config_; }
  //! True when the server advertises `endpoint` ("HEAD /v1/{prefix}/namespaces/{namespace}")
  //! or advertises no endpoint list at all.
  bool SupportsEndpoint(std::string_view endpoint) const;

  //! The storage credentials vended with the table's last load/create (empty if none).
  //! Call LoadTable again to renew them before StorageCredential::expires_at_ms.
  std::vector<StorageCredential> StorageCredentials(const iceberg::TableIdentifier& table) const;

  //! POST .../tables with stage-create: the metadata the table would have (location chosen
  //! by the server, metadata_location empty); nothing is created until a CommitTable with
  //! AssertCreate and iceberg::CreateTableUpdates(metadata) plus the first snapshot.
  Result<iceberg::LoadedTable> StageCreateTable(const iceberg::TableIdentifier& table,
                                                const iceberg::Schema& schema,
                                                const iceberg::PartitionSpec& spec,
                                                const iceberg::SortOrder& sort_order,
                                                const iceberg::Properties& properties,
                                                std::optional<std::string> location);

  std::string_view Name() const override { return options_.name; }
  Status CreateNamespace(const iceberg::Namespace& ns,
                         const iceberg::Properties& properties) override;
  Result<std::vector<iceberg::Namespace>> ListNamespaces(const iceberg::Namespace& parent) override;
  Result<bool> NamespaceExists(const iceberg::Namespace& ns) override;
  Result<iceberg::Properties> LoadNamespaceProperties(const iceberg::Namespace& ns) override;
  Status UpdateNamespaceProperties(const iceberg::Namespace& ns,
                                   std::span<const std::string> removals,
                                   const iceberg::Properties& updates) override;
  Status DropNamespace(const iceberg::Namespace& ns) override;
  Result<std::vector<iceberg::TableIdentifier>> ListTables(const iceberg::Namespace& ns) override;
  Result<bool> TableExists(const iceberg::TableIdentifier& table) override;
  Result<iceberg::LoadedTable> LoadTable(const iceberg::TableIdentifier& table) override;
  Result<iceberg::LoadedTable> CreateTable(const iceberg::TableIdentifier& table,
                                           const iceberg::Schema& schema,
                                           const iceberg::PartitionSpec& spec,
                                           const iceberg::SortOrder& sort_order,
                                           const iceberg::Properties& properties,
                                           std::optional<std::string> location) override;
  Result<iceberg::LoadedTable> CommitTable(const iceberg::TableCommit& commit) override;
  //! After the transaction lands (204) each table is loaded again for the results; if that
  //! reload fails the error is kCommitStateUnknown (the commit did land: reconcile, keep files).
  Result<std::vector<iceberg::LoadedTable>> CommitTransaction(
      std::span<const iceberg::TableCommit> commits) override;
  Status DropTable(const iceberg::TableIdentifier& table) override;
  Status RenameTable(const iceberg::TableIdentifier& from,
                     const iceberg::TableIdentifier& to) override;
  Result<iceberg::LoadedTable> RegisterTable(const iceberg::TableIdentifier& table,
                                             std::string_view metadata_location) override;
  //! StageCreateTable at the location the server chooses: its metadata.
  Result<iceberg::TableMetadata> PrepareCreateTable(const iceberg::TableIdentifier& table,
                                                    const iceberg::Schema& schema,
                                                    const iceberg::PartitionSpec& spec,
                                                    const iceberg::SortOrder& sort_order,
                                                    const iceberg::Properties& properties) override;
  //! True until the server refuses a transaction that creates a table. Servers differ and do
  //! not advertise it: Nessie accepts a staged create (assert-create) inside
  //! /transactions/commit; Iceberg's reference adapter loads every table of a transaction first
  //! (404 for a new one) and Polaris answers 400. Such a refusal applies nothing, so
  //! CommitTransaction then reports it as kConfig, this turns false for the catalog's lifetime,
  //! and writers commit new tables one by one (load/load_commit.h).
  bool TransactionsCreateTables() const override { return creates_in_transactions_.load(); }
  //! True when the server's configuration carries `nessie.*` settings: Project Nessie versions
  //! the whole catalog (each commit is a catalog version it can serve) and writes table metadata
  //! that holds only the current snapshot.
  bool KeepsHistoryOutsideMetadata() const override;
  const iceberg::TableNames& table_names() const override { return options_.table_names; }

 private:
  RestCatalog(RestCatalogOptions options, http::HttpClient client,
              std::optional<OAuth2Tokens> tokens)
      : options_(std::move(options)),
        client_(std::move(client)),
        tokens_(std::move(tokens)),
        paths_(options_.uri, "") {}

  //! Sends with auth/realm headers; on a 401 fetches a new token and sends once more (a 401
  //! means the request was not processed). Non-2xx responses are returned as values.
  Result<http::Response> Send(http::Request request);
  //! Send + error mapping: the 2xx response, or ErrorFromResponse/ErrorFromTransport.
  Result<http::Response> Call(http::Method method, std::string url, std::string body, RestOp op,
                              std::string_view what, bool delegate_credentials = false);
  //! GET /v1/config and the prefix it gives.
  Status LoadConfig();
  //! HEAD (or GET when HEAD is not advertised): true on 2xx, false on 404.
  Result<bool> Exists(std::string url, std::string_view endpoint, std::string_view what);
  //! Follows next-page-token, handing each page's JSON to `page`.
  Status ListPaged(const std::string& url, std::string_view what,
                   const std::function<Status(const nlohmann::json&)>& page);
  //! Parses a LoadTableResult/CommitTableResponse and remembers its storage credentials.
  Result<iceberg::LoadedTable> ParseLoadResult(const iceberg::TableIdentifier& table,
                                               const std::string& body, bool remember_credentials);
  //! `table` validated and named as the server knows it (options_.table_names): every URL and
  //! body that names a table is built from this, messages keep databox's name.
  Result<iceberg::TableIdentifier> OnServer(const iceberg::TableIdentifier& table) const;
  //! A 400 refusing a name that starts with '_' while no prefix maps such names becomes kConfig
  //! saying which setting maps them (SeaweedFS, AWS S3 Tables); other errors are returned as is.
  Error ExplainNameRefusal(Error error, const iceberg::TableIdentifier& table) const;
  //! Tells options_.on_committed that `tables` were committed (nothing when empty or unset).
  void Committed(std::span<const iceberg::LoadedTable> tables,
                 std::span<const iceberg::TableIdentifier> names) const;
  Result<iceberg::LoadedTable> PostCreate(const iceberg::TableIdentifier& table,
                                          const iceberg::Schema& schema,
                                          const iceberg::PartitionSpec& spec,
                                          const iceberg::SortOrder& sort_order,
                                          const iceberg::Properties& properties,
                                          const std::optional<std::string>& location, bool stage);

  RestCatalogOptions options_;
  std::mutex mutex_;  //!< serialises client_ and tokens_
  http::HttpClient client_;
  std::optional<OAuth2Tokens> tokens_;  //!< none without a credential
  RestConfig config_;
  RestPaths paths_;
  mutable std::mutex credentials_mutex_;
  std::atomic<bool> creates_in_transactions_{true};  //!< see TransactionsCreateTables
  std::map<std::string, std::vector<StorageCredential>> credentials_;  //!< by table "ns.t"
};

}  // namespace databox::catalog::rest
