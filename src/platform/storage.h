// The warehouse's storage from the registry's [project.warehouse]: a FileIO that routes local
// paths to LocalFileIO and, for an s3:// warehouse, s3:// locations to S3FileIO with static
// credentials (registry secrets or DATABOX_AWS_*). Credentials vended by a REST catalog are not
// wired into storage yet.
#pragma once

#include <memory>

#include "common/error.h"
#include "fileio/file_io.h"
#include "load/duckdb_s3.h"
#include "registry/model.h"

namespace databox::platform {

struct Storage {
  std::shared_ptr<fileio::FileIO> file_io;  //!< never null
  //! How DuckDB reads the s3:// warehouse (the same endpoint and credentials); null for a
  //! local warehouse.
  std::shared_ptr<const load::DuckDbS3Provider> duckdb_s3;
};

//! kConfig when an s3:// warehouse has incomplete credentials or a bad endpoint. Creates no
//! folder: local writes create theirs, and the refresh preflight reports a warehouse that
//! cannot be written.
Result<Storage> OpenStorage(const registry::WarehouseSettings& warehouse);

}  // namespace databox::platform
