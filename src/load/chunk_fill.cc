#include "load/chunk_fill.h"

#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "common/utf8.h"

namespace databox::load {

std::vector<duckdb_type> ChunkTypesFor(const normalize::TableSchema& schema) {
  std::vector<duckdb_type> types;
  types.reserve(schema.columns.size());
  for (const normalize::Column& column : schema.columns)
    types.push_back(ChunkTypeFor(column.data_type));
  return types;
}

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

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

//! The first of rows [begin, begin + count) of text `values` that is not valid UTF-8, if any.
//! One pass over their bytes together: they are valid, and each value is, when no value starts
//! inside a character (its end is the next value's start, or the end of the bytes).
std::optional<std::size_t> FirstInvalidUtf8(const normalize::StringValues& values,
                                            std::size_t begin, std::size_t count) {
  bool split = false;
  for (std::size_t i = 0; i < count && !split; ++i) {
    const std::string_view value = values.view(begin + i);
    split = !value.empty() && IsContinuationByte(value.front());
  }
  if (!split && IsValidUtf8(values.joined(begin, count))) return std::nullopt;
  for (std::size_t i = 0; i < count; ++i) {
    if (!IsValidUtf8(values.view(begin + i))) return begin + i;
  }
  return std::nullopt;
}

//! Points rows [begin, begin + count) of `values` into column `column` of `chunk`.
void FillStrings(duck::DataChunk& chunk, uint64_t column, const normalize::StringValues& values,
                 std::size_t begin, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (values.is_null(begin + i)) {
      chunk.SetNull(column, i);
    } else {
      chunk.ReferenceString(column, i, values.view(begin + i));
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

Status FillChunk(const normalize::TableBatch& batch, std::size_t begin, std::size_t count,
                 duck::DataChunk& chunk) {
  const std::size_t width = batch.schema.columns.size();
  for (std::size_t col = 0; col < width; ++col) {
    const normalize::Column& column = batch.schema.columns[col];
    const auto* text = std::get_if<normalize::StringValues>(&batch.columns[col]);
    if (text != nullptr && ChunkTypeFor(column.data_type) == DUCKDB_TYPE_VARCHAR) {
      if (auto bad = FirstInvalidUtf8(*text, begin, count)) {
        return MakeError(ErrorKind::kData,
                         "table " + batch.schema.name + ", column " + column.name + ", row " +
                             std::to_string(*bad + 1) +
                             " of its batch: the text is not valid UTF-8; fix the source's "
                             "encoding (no value was stored)");
      }
    }
    FillColumn(chunk, col, column.data_type, batch.columns[col], begin, count);
  }
  for (std::size_t col = width; col < chunk.column_count(); ++col) chunk.SetAllNull(col);
  return Ok();
}

}  // namespace databox::load
