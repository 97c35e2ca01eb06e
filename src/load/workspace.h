// The open handles of one project: its state folder, storage and catalog, built from the
// registry. Everything that loads, inspects or queries tables starts from a Workspace.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "duck/connection.h"
#include "fileio/file_io.h"
#include "fileio/s3/credentials.h"
#include "iceberg/catalog.h"
#include "registry/model.h"

namespace databox::load {

//! How DuckDB reaches an s3:// warehouse: the fields of a DuckDB S3 secret (httpfs).
struct DuckDbS3Access {
  std::string endpoint;   //!< host[:port], no scheme; empty = AWS
  bool use_ssl = true;    //!< false for an http:// endpoint
  std::string url_style;  //!< "path" or "vhost"
  std::string region;
  std::string key_id;
  std::string secret;
  std::string session_token;  //!< empty when the credentials have none
};

class Workspace {
 public:
  //! Creates the state folder if missing and opens the catalog: the embedded SQLite one for
  //! `type = "sql"`, an Iceberg REST catalog (Polaris) for `type = "rest"`. An s3:// warehouse
  //! gets S3 storage with static credentials (registry secrets or DATABOX_AWS_*).
  static Result<std::unique_ptr<Workspace>> Open(const registry::Registry& registry);

  const registry::Registry& registry() const { return *registry_; }
  iceberg::Catalog& catalog() { return *catalog_; }
  std::shared_ptr<fileio::FileIO> file_io() const { return file_io_; }
  //! The project's state folder (absolute).
  const std::filesystem::path& state_dir() const { return registry_->project.state_dir; }
  //! Root of the load packages: <state_dir>/loads.
  std::filesystem::path loads_dir() const { return state_dir() / "loads"; }

  //! Lets a DuckDB connection read the warehouse's data files (read_parquet of table scans):
  //! for an s3:// warehouse it LOADs httpfs from the project's extension directory and creates
  //! a TEMPORARY S3 secret (endpoint, region, path style, the workspace's credentials) that
  //! lives only in that connection's in-memory catalog; nothing for a local warehouse.
  Status PrepareDuckDbReads(duck::Connection& conn) const;

  //! The S3 secret a DuckDB process needs to read the warehouse (the transform's SQLMesh gets
  //! it through environment variables); nullopt for a local warehouse.
  Result<std::optional<DuckDbS3Access>> DuckDbS3() const;

 private:
  Workspace(const registry::Registry* registry, std::shared_ptr<fileio::FileIO> file_io,
            std::unique_ptr<iceberg::Catalog> catalog,
            std::shared_ptr<fileio::s3::CredentialsProvider> s3_credentials)
      : registry_(registry),
        file_io_(std::move(file_io)),
        catalog_(std::move(catalog)),
        s3_credentials_(std::move(s3_credentials)) {}

  const registry::Registry* registry_;         //!< outlives the workspace
  std::shared_ptr<fileio::FileIO> file_io_;    //!< routes local paths (and s3:// later)
  std::unique_ptr<iceberg::Catalog> catalog_;  //!< never null
  //! The s3:// warehouse's credentials; null for a local warehouse.
  std::shared_ptr<fileio::s3::CredentialsProvider> s3_credentials_;
};

}  // namespace databox::load
