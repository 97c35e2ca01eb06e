#include "refresh/trino_views.h"

#include <map>

#include "duck/quote.h"
#include "http/client.h"
#include "iceberg/spec/table_identifier.h"
#include "refresh/analytics.h"
#include "refresh/platform_health.h"
#include "trino/statement_client.h"

namespace databox::refresh {
namespace {

std::string Name(const std::string& alias, const std::string& ns, const std::string& name) {
  return duck::QuoteIdentifier(alias) + "." + duck::QuoteIdentifier(ns) + "." +
         duck::QuoteIdentifier(name);
}

//! A client of the registry's coordinator; `quick`: one attempt of a few seconds (a readiness
//! check), else statements of up to five minutes a page with the client's retries.
Result<trino::StatementClient> Client(const registry::Registry& registry,
                                      std::unique_ptr<http::HttpClient>& http, bool quick) {
  http::ClientOptions options;
  options.timeout = quick ? std::chrono::milliseconds(10'000) : std::chrono::minutes(5);
  if (quick) options.retry.max_attempts = 1;
  DATABOX_ASSIGN_OR_RETURN(auto made, http::HttpClient::Make(options));
  http = std::make_unique<http::HttpClient>(std::move(made));
  const auto& settings = registry.project.transform.trino;
  return trino::StatementClient(*http, {.uri = settings.uri, .user = settings.user});
}

}  // namespace

std::string TrinoTypeOf(const std::string& duck_type) {
  static const std::map<std::string, std::string> kTypes = {
      {"TIMESTAMPTZ", "timestamp(6) with time zone"},
      {"TIMESTAMP", "timestamp(6)"},
      {"TIME", "time(6)"},
      {"BLOB", "varbinary"},
  };
  auto it = kTypes.find(duck_type);
  return it == kTypes.end() ? duck_type : it->second;
}

Result<TrinoViewStatements> MakeTrinoViewStatements(load::Workspace& workspace) {
  const registry::Registry& registry = workspace.registry();
  const std::string& alias = registry.project.analytics.catalog_alias;
  TrinoViewStatements out;
  std::vector<RoutineLoadStatus> routine;
  for (const registry::Source& source : registry.sources) {
    const std::string ns = source.Namespace();
    for (const std::string& table : DeclaredTables(source)) {
      DATABOX_ASSIGN_OR_RETURN(
          bool exists, workspace.catalog().TableExists(iceberg::TableIdentifier{{ns}, table}));
      // Trino names tables as the catalog's server does (dbx_dlt_loads for _dlt_loads).
      DATABOX_ASSIGN_OR_RETURN(std::string on_server,
                               workspace.catalog().table_names().ToServer(table));
      std::string select = exists ? "SELECT * FROM " + Name(alias, ns, on_server)
                                  : PlaceholderSql(PlaceholderColumns(source, table), TrinoTypeOf);
      if (table == kLoadStatusTable && source.eligibility == registry::Eligibility::kRoutine) {
        routine.push_back({.source = source.name, .load_status_sql = select});
      }
      if (exists) continue;
      if (out.placeholders.empty() || !out.placeholders.back().starts_with(ns + ".")) {
        out.before.push_back("CREATE SCHEMA IF NOT EXISTS " + duck::QuoteIdentifier(alias) + "." +
                             duck::QuoteIdentifier(ns));
      }
      out.placeholders.push_back(ns + "." + table);
      out.before.push_back("CREATE OR REPLACE VIEW " + Name(alias, ns, on_server) + " AS " +
                           select);
      out.after.push_back("DROP VIEW IF EXISTS " + Name(alias, ns, on_server));
    }
  }
  out.before.push_back("CREATE SCHEMA IF NOT EXISTS " + duck::QuoteIdentifier(alias) + "." +
                       duck::QuoteIdentifier(kPlatformSchema));
  out.before.push_back("CREATE OR REPLACE VIEW " + Name(alias, kPlatformSchema, kSourcesView) +
                       " AS " + SourcesViewSql(registry));
  out.before.push_back("CREATE OR REPLACE VIEW " +
                       Name(alias, kPlatformSchema, kPlatformLoadsView) + " AS " +
                       PlatformLoadsViewSql(routine));
  return out;
}

Status RunOnTrino(const registry::Registry& registry, const std::vector<std::string>& statements) {
  std::unique_ptr<http::HttpClient> http;
  DATABOX_ASSIGN_OR_RETURN(auto client, Client(registry, http, /*quick=*/false));
  for (const std::string& sql : statements) DATABOX_RETURN_IF_ERROR(client.Execute(sql));
  return {};
}

Status CheckTrinoReady(const registry::Registry& registry) {
  std::unique_ptr<http::HttpClient> http;
  DATABOX_ASSIGN_OR_RETURN(auto client, Client(registry, http, /*quick=*/true));
  return client.CheckReady();
}

}  // namespace databox::refresh
