// Partition values computed by DuckDB: the SQL expression of each partition field over a table's
// columns (every transform of the spec: identity, year, month, day, hour, bucket[N], truncate[W],
// void), the value each expression's text stands for, and the folder a partition's files go to.
//
// The expressions yield text that converts back exactly: dates as days since 1970-01-01, times
// and timestamps as microseconds (timestamptz since the UTC epoch), decimals as their unscaled
// integer, binary values in hex; other types as DuckDB prints them. bucket[N] calls a function
// written here (PreparePartitionFunctions) that hashes as the spec's Appendix B says.
#pragma once

#include <optional>
#include <string>

#include "common/error.h"
#include "duck/connection.h"
#include "iceberg/spec/literal.h"
#include "iceberg/spec/partition_spec.h"
#include "iceberg/spec/schema.h"

namespace databox::iceberg {

//! Makes the functions the expressions call available in `conn`'s database.
Status PreparePartitionFunctions(duck::Connection& conn);

//! The SQL expression computing `field` from the columns of `schema` (by their names).
Result<std::string> PartitionExpression(const Schema& schema, const PartitionField& field);

//! The partition value of `field` from the text of its expression (nullopt = null).
Result<std::optional<Literal>> PartitionValueOf(const Schema& schema, const PartitionField& field,
                                                const std::optional<std::string>& text);

//! "<name>=<value>" folder name of one partition field, bytes outside [A-Za-z0-9._-]
//! percent-escaped ("null" for null), as Iceberg Java lays out data files.
std::string PartitionSegment(const std::string& name, const std::optional<Literal>& value);

}  // namespace databox::iceberg
