// The Iceberg REST routes (open-api/rest-catalog-open-api.yaml), as URLs under the catalog's
// base URI and the prefix the configuration endpoint returned.
#pragma once

#include <string>
#include <string_view>

#include "iceberg/spec/table_identifier.h"

namespace databox::catalog::rest {

//! A namespace in a path or in the `parent` query parameter: levels percent-encoded and
//! joined by the unit separator, encoded as %1F.
std::string EncodeNamespace(const iceberg::Namespace& ns);

class RestPaths {
 public:
  //! `base_uri` without a trailing slash ("http://host:8181/api/catalog"); `prefix` may be empty
  //! and is used as the server sent it (already URL-encoded, e.g. "main%7Cwarehouse").
  RestPaths(std::string base_uri, std::string prefix);

  //! {base}/v1/config?warehouse=... (the warehouse parameter is left out when empty).
  static std::string Config(std::string_view base_uri, std::string_view warehouse);

  std::string Namespaces() const;
  std::string Namespace(const iceberg::Namespace& ns) const;
  std::string NamespaceProperties(const iceberg::Namespace& ns) const;
  std::string Tables(const iceberg::Namespace& ns) const;
  std::string Table(const iceberg::TableIdentifier& table) const;
  std::string Register(const iceberg::Namespace& ns) const;
  std::string Rename() const;
  std::string TransactionCommit() const;

 private:
  std::string root_;  //!< {base}/v1 or {base}/v1/{prefix}
};

//! `url` with `name=value` appended (value percent-encoded unless `encoded`).
std::string AppendQuery(std::string url, std::string_view name, std::string_view value,
                        bool encoded = false);

}  // namespace databox::catalog::rest
