// Table metadata JSON (the vN.metadata.json file and the REST "metadata" object).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "common/error.h"
#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {

//! Spec JSON for format version 2 (statistics/partition-statistics written empty).
nlohmann::json TableMetadataToJson(const TableMetadata& metadata);
//! Reads v1 or v2 metadata. v1 is upgraded in memory: "schema"/"partition-spec" singular
//! forms become schemas/partition-specs, missing sort orders become unsorted, and
//! format_version becomes 2 (the next write is v2, as the spec's upgrade allows).
Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& json);

//! Compact JSON text, written directly (no document tree) / parse from text (kData on
//! malformed input). Strings that are not valid UTF-8 get U+FFFD for the bad bytes.
std::string TableMetadataToJsonString(const TableMetadata& metadata);
Result<TableMetadata> ParseTableMetadata(std::string_view text);

}  // namespace databox::iceberg
