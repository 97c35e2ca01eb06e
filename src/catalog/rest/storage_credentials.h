// Storage credentials a REST catalog vends with a table (X-Iceberg-Access-Delegation:
// vended-credentials): the LoadTableResult's "storage-credentials" list and the S3 keys of
// its "config" object. fileio/s3 picks the longest matching prefix and asks the catalog to
// load the table again before expires_at_ms.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace databox::catalog::rest {

struct StorageCredential {
  //! Location prefix the credential covers ("s3://bucket/path"); for credentials taken
  //! from the table config, the table's location.
  std::string prefix;
  //! Iceberg FileIO properties: s3.access-key-id, s3.secret-access-key, s3.session-token,
  //! s3.endpoint, client.region, ... Secret values are registered with RegisterSecret.
  std::map<std::string, std::string> config;
  //! When the credential expires (s3.session-token-expires-at-ms or expiration-time), if told.
  std::optional<int64_t> expires_at_ms;

  friend bool operator==(const StorageCredential&, const StorageCredential&) = default;
};

//! Credentials from a LoadTableResult: every "storage-credentials" entry, then (when the
//! "config" object holds s3.access-key-id) one for `table_location` built from the config's
//! s3.* and client.* keys. Malformed entries are skipped. Registers every secret value.
std::vector<StorageCredential> ParseStorageCredentials(const nlohmann::json& load_result,
                                                       std::string_view table_location);

//! The credential with the longest prefix that `location` starts with, or null.
const StorageCredential* FindCredential(const std::vector<StorageCredential>& credentials,
                                        std::string_view location);

}  // namespace databox::catalog::rest
