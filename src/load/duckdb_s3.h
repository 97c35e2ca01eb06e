// What DuckDB needs to read the data files of an s3:// warehouse (merges, inspection, raw
// views, the transform): the fields of a DuckDB S3 secret (httpfs). The loader only consumes
// them; the composition root (platform/), which knows the storage and its credentials, supplies
// a provider.
#pragma once

#include <string>

#include "common/error.h"

namespace databox::load {

//! The fields of a DuckDB S3 secret.
struct DuckDbS3Access {
  std::string endpoint;   //!< host[:port], no scheme; empty = AWS
  bool use_ssl = true;    //!< false for an http:// endpoint
  std::string url_style;  //!< "path" or "vhost"
  std::string region;
  std::string key_id;
  std::string secret;
  std::string session_token;  //!< empty when the credentials have none
};

//! Supplies DuckDbS3Access for an s3:// warehouse. Thread-safe.
class DuckDbS3Provider {
 public:
  virtual ~DuckDbS3Provider() = default;
  //! The secret's fields with the current credentials (they may be renewed between calls).
  virtual Result<DuckDbS3Access> Get() const = 0;
};

}  // namespace databox::load
