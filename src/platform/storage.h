// The warehouse's storage from the registry's [project.warehouse]: a FileIO that routes local
// paths to LocalFileIO and, for an s3:// warehouse, s3:// locations to S3FileIO. Its
// credentials: with a REST catalog, the ones the catalog vends with each table (TableCredentials,
// by location prefix), falling back to static keys (registry secrets or DATABOX_AWS_*); with
// the embedded catalog, static keys only.
#pragma once

#include <memory>

#include "common/error.h"
#include "fileio/file_io.h"
#include "load/duckdb_s3.h"
#include "platform/table_credentials.h"
#include "registry/model.h"

namespace databox::platform {

struct Storage {
  std::shared_ptr<fileio::FileIO> file_io;  //!< never null
  //! How DuckDB reads the s3:// warehouse (the same endpoint and credentials); null for a
  //! local warehouse.
  std::shared_ptr<const load::DuckDbS3Provider> duckdb_s3;
  //! Where the catalog's vended credentials go (OpenCatalog wires it); null unless the
  //! warehouse is s3:// and the catalog vends credentials.
  std::shared_ptr<TableCredentials> table_credentials;
  //! False when the only credentials are per table (nothing reaches the warehouse root).
  bool warehouse_wide_access = true;
};

//! kConfig when an s3:// warehouse has incomplete credentials or a bad endpoint; with
//! `catalog_vends_credentials` having no static keys at all is allowed. Creates no folder:
//! local writes create theirs, and the refresh preflight reports a warehouse that cannot be
//! written.
Result<Storage> OpenStorage(const registry::WarehouseSettings& warehouse,
                            bool catalog_vends_credentials = false);

}  // namespace databox::platform
