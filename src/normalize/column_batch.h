// Columnar rows of one table, ready to be appended into DuckDB or written to Parquet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "normalize/data_type.h"
#include "normalize/table_schema.h"

namespace databox::normalize {

//! bool columns.
using BoolValues = std::vector<std::optional<bool>>;
//! bigint; timestamp (µs since epoch, UTC); date (days since epoch); time (µs since midnight).
using Int64Values = std::vector<std::optional<int64_t>>;
//! double columns.
using DoubleValues = std::vector<std::optional<double>>;
//! text; json (compact JSON text); decimal and wei (decimal text); binary (raw bytes).
using StringValues = std::vector<std::optional<std::string>>;

//! The values of one column; the alternative is fixed by the column's data type (ValuesFor).
using ColumnValues = std::variant<BoolValues, Int64Values, DoubleValues, StringValues>;

//! One non-null value after coercion to its column's type.
using Cell = std::variant<bool, int64_t, double, std::string>;

//! Empty values of the physical kind used for `type`, holding `nulls` leading nulls.
ColumnValues ValuesFor(DataType type, std::size_t nulls = 0);

//! Number of rows held by `values`.
std::size_t ValuesSize(const ColumnValues& values);

//! Rows of one table flushed together. `columns[i]` holds the values of `schema.columns[i]`;
//! columns created after some rows were buffered hold nulls for those rows.
struct TableBatch {
  TableSchema schema;                 //!< the table's schema when the batch was flushed
  std::vector<ColumnValues> columns;  //!< one per schema column, each num_rows long
  std::size_t num_rows = 0;           //!< rows in this batch
};

}  // namespace databox::normalize
