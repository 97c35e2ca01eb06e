// How DuckDB reads an s3:// warehouse, from the same S3 options and credentials the warehouse's
// S3FileIO uses: the load::DuckDbS3Provider the platform gives the workspace.
#pragma once

#include <memory>

#include "fileio/s3/credentials.h"
#include "fileio/s3/s3_file_io.h"
#include "load/duckdb_s3.h"
#include "platform/table_credentials.h"

namespace databox::platform {

class S3DuckDbAccess final : public load::DuckDbS3Provider {
 public:
  //! `tables` (credentials a REST catalog vended per table) may be null; `credentials` gives
  //! the warehouse-wide secret.
  S3DuckDbAccess(fileio::s3::S3Options options,
                 std::shared_ptr<fileio::s3::CredentialsProvider> credentials,
                 std::shared_ptr<TableCredentials> tables = nullptr)
      : options_(std::move(options)),
        credentials_(std::move(credentials)),
        tables_(std::move(tables)) {}

  //! DuckDB wants the endpoint as host[:port] and TLS as a separate switch: "http://h:9000/"
  //! gives endpoint "h:9000" without SSL; path-style addressing gives url_style "path".
  Result<load::DuckDbS3Access> Get() const override;
  //! The warehouse-wide secret when static keys exist, then one per vended table prefix.
  Result<std::vector<load::DuckDbS3Access>> All() const override;

 private:
  load::DuckDbS3Access Access(const fileio::s3::Credentials& credentials) const;

  fileio::s3::S3Options options_;
  std::shared_ptr<fileio::s3::CredentialsProvider> credentials_;  //!< never null
  std::shared_ptr<TableCredentials> tables_;                      //!< may be null
};

}  // namespace databox::platform
