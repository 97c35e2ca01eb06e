// The open handles of one project: its state folder, storage, catalog and sources. Everything
// that loads, inspects or queries tables starts from a Workspace. It holds interfaces only:
// which catalog, storage and transport stand behind them is the composition root's choice
// (platform::OpenWorkspace builds one from the registry).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "duck/connection.h"
#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"
#include "load/duckdb_s3.h"
#include "registry/model.h"
#include "source/source.h"

namespace databox::load {

//! What a workspace is made of.
struct WorkspaceParts {
  std::unique_ptr<iceberg::Catalog> catalog;       //!< never null
  std::shared_ptr<fileio::FileIO> file_io;         //!< reaches every location of the warehouse
  std::unique_ptr<source::SourceFactory> sources;  //!< never null
  //! How DuckDB reads an s3:// warehouse; null for a local warehouse.
  std::shared_ptr<const DuckDbS3Provider> duckdb_s3;
  //! False when storage credentials only come per table from the catalog (vended), so nothing
  //! outside a table's location can be reached (no probe at the warehouse root).
  bool warehouse_wide_access = true;
};

class Workspace {
 public:
  //! `registry` must outlive the workspace and its state folder must exist.
  Workspace(const registry::Registry& registry, WorkspaceParts parts)
      : registry_(&registry), parts_(std::move(parts)) {}

  const registry::Registry& registry() const { return *registry_; }
  iceberg::Catalog& catalog() { return *parts_.catalog; }
  std::shared_ptr<fileio::FileIO> file_io() const { return parts_.file_io; }
  //! Makes the Source of one load.
  const source::SourceFactory& sources() const { return *parts_.sources; }
  //! Whether the storage credentials reach the whole warehouse (false: vended per table only).
  bool warehouse_wide_access() const { return parts_.warehouse_wide_access; }
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
  const registry::Registry* registry_;  //!< outlives the workspace
  WorkspaceParts parts_;
};

}  // namespace databox::load
