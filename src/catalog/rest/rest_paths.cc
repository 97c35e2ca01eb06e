#include "catalog/rest/rest_paths.h"

#include "common/encoding.h"

namespace databox::catalog::rest {

std::string EncodeNamespace(const iceberg::Namespace& ns) {
  std::string out;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (i > 0) out += "%1F";
    out += UrlEncode(ns[i]);
  }
  return out;
}

RestPaths::RestPaths(std::string base_uri, std::string prefix) : root_(std::move(base_uri)) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
  root_ += "/v1";
  // Verbatim, as Iceberg's own client does: the server hands out a path fragment that is
  // already encoded (Nessie's "main%7Cwarehouse"); encoding it again names another prefix.
  if (!prefix.empty()) root_ += "/" + prefix;
}

std::string RestPaths::Config(std::string_view base_uri, std::string_view warehouse) {
  std::string url(base_uri);
  while (!url.empty() && url.back() == '/') url.pop_back();
  url += "/v1/config";
  if (!warehouse.empty()) url = AppendQuery(std::move(url), "warehouse", warehouse);
  return url;
}

std::string RestPaths::Namespaces() const { return root_ + "/namespaces"; }

std::string RestPaths::Namespace(const iceberg::Namespace& ns) const {
  return Namespaces() + "/" + EncodeNamespace(ns);
}

std::string RestPaths::NamespaceProperties(const iceberg::Namespace& ns) const {
  return Namespace(ns) + "/properties";
}

std::string RestPaths::Tables(const iceberg::Namespace& ns) const {
  return Namespace(ns) + "/tables";
}

std::string RestPaths::Table(const iceberg::TableIdentifier& table) const {
  return Tables(table.ns) + "/" + UrlEncode(table.name);
}

std::string RestPaths::Register(const iceberg::Namespace& ns) const {
  return Namespace(ns) + "/register";
}

std::string RestPaths::Rename() const { return root_ + "/tables/rename"; }

std::string RestPaths::TransactionCommit() const { return root_ + "/transactions/commit"; }

std::string AppendQuery(std::string url, std::string_view name, std::string_view value,
                        bool encoded) {
  url += url.find('?') == std::string::npos ? '?' : '&';
  url += UrlEncode(name);
  url += '=';
  url += encoded ? std::string(value) : UrlEncode(value);
  return url;
}

}  // namespace databox::catalog::rest
