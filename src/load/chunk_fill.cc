#include "load/chunk_fill.h"

#include <type_traits>
#include <variant>

namespace databox::load {

duckdb_type ChunkTypeFor(normalize::DataType type) {
  using normalize::DataType;
  switch (type) {
    case DataType::kText:
    case DataType::kJson:
    case DataType::kDecimal:
    case DataType::kWei:
      return DUCKDB_TYPE_VARCHAR;
    case DataType::kBigint:
      return DUCKDB_TYPE_BIGINT;
    case DataType::kDouble:
      return DUCKDB_TYPE_DOUBLE;
    case DataType::kBool:
      return DUCKDB_TYPE_BOOLEAN;
    case DataType::kTimestamp:
      return DUCKDB_TYPE_TIMESTAMP_TZ;
    case DataType::kDate:
      return DUCKDB_TYPE_DATE;
    case DataType::kTime:
      return DUCKDB_TYPE_TIME;
    case DataType::kBinary:
      return DUCKDB_TYPE_BLOB;
  }
  return DUCKDB_TYPE_VARCHAR;
}

namespace {

//! Calls put(i, value) for each non-null cell of rows [begin, begin + count) and marks the
//! null ones in `column` of `chunk`.
template <typename Cells, typename Put>
void ForEachCell(duck::DataChunk& chunk, uint64_t column, const Cells& cells, std::size_t begin,
                 std::size_t count, Put put) {
  for (std::size_t i = 0; i < count; ++i) {
    const auto& cell = cells[begin + i];
    if (cell) {
      put(i, *cell);
    } else {
      chunk.SetNull(column, i);
    }
  }
}

//! Copies rows [begin, begin + count) of string `values` into column `column` of `chunk`.
void FillStrings(duck::DataChunk& chunk, uint64_t column, const normalize::StringValues& values,
                 std::size_t begin, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (values.is_null(begin + i)) {
      chunk.SetNull(column, i);
    } else {
      chunk.SetString(column, i, values.view(begin + i));
    }
  }
}

//! Copies rows [begin, begin + count) of `values` into column `column` of `chunk`.
void FillColumn(duck::DataChunk& chunk, uint64_t column, normalize::DataType type,
                const normalize::ColumnValues& values, std::size_t begin, std::size_t count) {
  std::visit(
      [&](const auto& cells) {
        using Values = std::decay_t<decltype(cells)>;
        if constexpr (std::is_same_v<Values, normalize::StringValues>) {
          FillStrings(chunk, column, cells, begin, count);
        } else if (type == normalize::DataType::kDate) {
          auto* data = chunk.Data<int32_t>(column);
          ForEachCell(chunk, column, cells, begin, count,
                      [&](std::size_t i, int64_t v) { data[i] = static_cast<int32_t>(v); });
        } else {
          using T = typename Values::value_type::value_type;
          auto* data = chunk.Data<T>(column);
          ForEachCell(chunk, column, cells, begin, count, [&](std::size_t i, T v) { data[i] = v; });
        }
      },
      values);
}

}  // namespace

void FillChunk(const normalize::TableBatch& batch, std::size_t begin, std::size_t count,
               duck::DataChunk& chunk) {
  const std::size_t width = batch.schema.columns.size();
  for (std::size_t col = 0; col < width; ++col) {
    FillColumn(chunk, col, batch.schema.columns[col].data_type, batch.columns[col], begin, count);
  }
  for (std::size_t col = width; col < chunk.column_count(); ++col) chunk.SetAllNull(col);
}

}  // namespace databox::load
