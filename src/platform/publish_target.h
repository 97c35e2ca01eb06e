// The target of `databox publish`: --to URI, else the registry's [publish] to. An s3:// target
// gets an S3FileIO with [publish.s3]'s endpoint, region and keys (the same secret references as
// [project.warehouse.s3]), or, without them, DATABOX_S3_ENDPOINT and DATABOX_AWS_* from the
// environment; DuckDB reads it back with a secret scoped to the target. A local target is an
// absolute folder (a relative --to resolves against the working folder).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "fileio/file_io.h"
#include "load/duckdb_s3.h"
#include "registry/model.h"

namespace databox::platform {

struct PublishStorage {
  std::shared_ptr<fileio::FileIO> io;
  std::string root;  //!< s3://bucket/prefix or an absolute folder, no trailing slash
  std::optional<load::DuckDbS3Access> duckdb_s3;  //!< s3:// only
};

//! kConfig when neither `to` nor [publish] names a target, for another scheme, or for
//! incomplete S3 credentials.
Result<PublishStorage> OpenPublishStorage(const registry::Registry& registry,
                                          const std::optional<std::string>& to);

}  // namespace databox::platform
