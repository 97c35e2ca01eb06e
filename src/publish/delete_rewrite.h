// Position delete files for the target (docs/publish.md, "Delete files"). A position delete
// file's rows name data files by location, so it cannot be copied: it is rewritten, row for row,
// with each file_path replaced by that data file's target location (rows naming a file that is
// not live are dropped: they delete nothing). The rewrite goes through DuckDB into a local file
// with the reserved field ids, then to the target. Merged rows (data files rewritten without
// the deleted rows) were not chosen: they would make the published table's files differ from
// the source's, and a later publish would copy a table again whenever its deletes change.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "common/error.h"
#include "duck/connection.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest.h"

namespace databox::publish {

//! Rewrites `source` (read by `conn`, which can read the warehouse) to `target`, with
//! `data_targets` mapping source data file locations to target ones; `scratch` is a local
//! folder for the file before it is uploaded. Returns the target's DataFile (same partition and
//! content; new path, size, counts and file_path bounds).
Result<iceberg::DataFile> RewritePositionDeletes(
    duck::Connection& conn, const iceberg::DataFile& source, const std::string& target,
    const std::map<std::string, std::string>& data_targets, fileio::FileIO& target_io,
    const std::filesystem::path& scratch);

//! The DataFile of a delete file already rewritten to `target` by an earlier publish: `source`'s
//! entry with the target's path, size and file_path bounds.
iceberg::DataFile PublishedDeleteFile(const iceberg::DataFile& source, const std::string& target,
                                      uint64_t size,
                                      const std::map<std::string, std::string>& data_targets);

}  // namespace databox::publish
