// Naming of table metadata files: <metadata folder>/<5-digit version>-<uuid>.metadata.json,
// the layout Iceberg Java and pyiceberg write, so versions sort and tools recognise them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {

//! Table property that moves metadata files out of <table location>/metadata (Iceberg's name).
inline constexpr std::string_view kWriteMetadataPathProperty = "write.metadata.path";

//! The version in a metadata file name ("…/00012-<uuid>.metadata.json" -> 12), if any.
std::optional<int> MetadataVersion(std::string_view metadata_location);

//! A fresh location for `metadata`'s next metadata file: version = previous version + 1
//! (0 for a new table; the metadata-log length when the previous name has no version),
//! in `metadata`'s metadata folder, with a random UUID so concurrent writers never collide.
std::string NewMetadataLocation(const TableMetadata& metadata,
                                std::optional<std::string_view> previous_location);

}  // namespace databox::iceberg
