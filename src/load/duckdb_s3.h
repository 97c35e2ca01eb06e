// What DuckDB needs to read the data files of an s3:// warehouse (merges, inspection, raw
// views, the transform): the fields of a DuckDB S3 secret (httpfs). The loader only consumes
// them; the composition root (platform/), which knows the storage and its credentials, supplies
// a provider.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "duck/connection.h"

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
  //! The location prefix the secret is for ("s3://bucket/table/"); empty = the whole warehouse.
  std::string scope;
};

//! Supplies DuckDbS3Access for an s3:// warehouse. Thread-safe.
class DuckDbS3Provider {
 public:
  virtual ~DuckDbS3Provider() = default;
  //! The secret's fields with the current credentials (they may be renewed between calls).
  virtual Result<DuckDbS3Access> Get() const = 0;
  //! Every secret a connection needs: the warehouse-wide one, plus one scoped to each table
  //! location whose credentials a catalog vended. Get() alone unless overridden.
  virtual Result<std::vector<DuckDbS3Access>> All() const {
    DATABOX_ASSIGN_OR_RETURN(DuckDbS3Access access, Get());
    return std::vector<DuckDbS3Access>{std::move(access)};
  }
};

//! Creates (or replaces) the TEMPORARY S3 secret `access` describes in the connection's
//! in-memory catalog; httpfs must be loaded. One secret name per scope ("databox_warehouse"
//! for none), so preparing a connection again replaces a secret instead of adding another.
//! DuckDB's error when it refuses the secret (the keys never appear in it).
Status CreateDuckDbS3Secret(duck::Connection& conn, const DuckDbS3Access& access);

}  // namespace databox::load
