#include "duck/query_result.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "duck/error_internal.h"
#include "duck/vector_reader_internal.h"

namespace databox::duck {
namespace {

template <typename T>
T At(duckdb_vector vector, uint64_t index) {
  return static_cast<const T*>(duckdb_vector_get_data(vector))[index];
}

std::string StringAt(duckdb_vector vector, uint64_t index) {
  auto s = At<duckdb_string_t>(vector, index);
  return std::string(duckdb_string_t_data(&s), duckdb_string_t_length(s));
}

double HugeToDouble(duckdb_hugeint h) {
  return static_cast<double>(h.upper) * 18446744073709551616.0 + static_cast<double>(h.lower);
}

}  // namespace

bool RowRef::IsNull(uint64_t col) const { return result_->IsNull(col, row_); }
Result<std::string> RowRef::GetString(uint64_t col) const { return result_->GetString(col, row_); }
Result<int64_t> RowRef::GetInt64(uint64_t col) const { return result_->GetInt64(col, row_); }
Result<double> RowRef::GetDouble(uint64_t col) const { return result_->GetDouble(col, row_); }
Result<bool> RowRef::GetBool(uint64_t col) const { return result_->GetBool(col, row_); }
Result<std::string> RowRef::GetAsString(uint64_t col) const {
  return result_->GetAsString(col, row_);
}

Result<QueryResult> QueryResult::FromDuckResult(duckdb_result* result) {
  QueryResult out;
  const uint64_t columns = duckdb_column_count(result);
  for (uint64_t c = 0; c < columns; ++c) {
    const char* name = duckdb_column_name(result, c);
    out.names_.emplace_back(name != nullptr ? name : "");
    out.types_.emplace_back(duckdb_column_logical_type(result, c));
  }
  while (duckdb_data_chunk chunk = duckdb_fetch_chunk(*result)) {
    internal::DataChunkPtr owned(chunk);
    const uint64_t size = duckdb_data_chunk_get_size(chunk);
    if (size == 0) continue;
    out.chunk_starts_.push_back(out.row_count_);
    out.row_count_ += size;
    out.chunks_.push_back(std::move(owned));
  }
  if (const char* error = duckdb_result_error(result); error != nullptr) {
    return MakeError(internal::KindOf(duckdb_result_error_type(result)),
                     std::string("reading DuckDB query result: ") + error);
  }
  return out;
}

TypeId QueryResult::column_type(uint64_t col) const {
  if (col >= types_.size()) return TypeId::kInvalid;
  return internal::TypeIdOf(duckdb_get_type_id(types_[col].get()));
}

std::string QueryResult::column_type_alias(uint64_t col) const {
  if (col >= types_.size()) return "";
  internal::DuckStringPtr alias(duckdb_logical_type_get_alias(types_[col].get()));
  return alias ? std::string(alias.get()) : std::string();
}

Result<uint64_t> QueryResult::ColumnIndex(const std::string& name) const {
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) {
    return MakeError(ErrorKind::kNotFound, "query result has no column named " + name);
  }
  return static_cast<uint64_t>(it - names_.begin());
}

std::string QueryResult::Where(uint64_t col, uint64_t row) const {
  std::string name = col < names_.size() ? names_[col] : "#" + std::to_string(col);
  return "column " + name + " row " + std::to_string(row);
}

Error QueryResult::TypeMismatch(uint64_t col, uint64_t row, const char* wanted) const {
  return Error{ErrorKind::kData, "cannot read " + Where(col, row) + " of type " +
                                     std::string(TypeIdName(column_type(col))) + " as " + wanted +
                                     ": use GetAsString or cast in SQL"};
}

Result<QueryResult::Cell> QueryResult::Find(uint64_t col, uint64_t row) const {
  if (col >= names_.size() || row >= row_count_) {
    return MakeError(ErrorKind::kData, "no " + Where(col, row) + " in a result of " +
                                           std::to_string(names_.size()) + " columns and " +
                                           std::to_string(row_count_) + " rows");
  }
  auto it = std::upper_bound(chunk_starts_.begin(), chunk_starts_.end(), row);
  const uint64_t chunk = static_cast<uint64_t>(it - chunk_starts_.begin()) - 1;
  return Cell{duckdb_data_chunk_get_vector(chunks_[chunk].get(), col), row - chunk_starts_[chunk]};
}

Result<QueryResult::Cell> QueryResult::Locate(uint64_t col, uint64_t row) const {
  DATABOX_ASSIGN_OR_RETURN(Cell cell, Find(col, row));
  if (internal::IsNullAt(cell.vector, cell.index)) {
    return MakeError(ErrorKind::kData, Where(col, row) + " is NULL: check IsNull first");
  }
  return cell;
}

bool QueryResult::IsNull(uint64_t col, uint64_t row) const {
  auto cell = Find(col, row);
  return !cell || internal::IsNullAt(cell->vector, cell->index);
}

Result<std::string> QueryResult::GetString(uint64_t col, uint64_t row) const {
  DATABOX_ASSIGN_OR_RETURN(Cell cell, Locate(col, row));
  switch (column_type(col)) {
    case TypeId::kVarchar:
    case TypeId::kBlob:
      return StringAt(cell.vector, cell.index);
    case TypeId::kEnum:
      return GetAsString(col, row);
    default:
      return std::unexpected(TypeMismatch(col, row, "a string"));
  }
}

Result<int64_t> QueryResult::GetInt64(uint64_t col, uint64_t row) const {
  DATABOX_ASSIGN_OR_RETURN(Cell cell, Locate(col, row));
  switch (column_type(col)) {
    case TypeId::kTinyInt:
      return At<int8_t>(cell.vector, cell.index);
    case TypeId::kSmallInt:
      return At<int16_t>(cell.vector, cell.index);
    case TypeId::kInteger:
      return At<int32_t>(cell.vector, cell.index);
    case TypeId::kBigInt:
      return At<int64_t>(cell.vector, cell.index);
    case TypeId::kUTinyInt:
      return At<uint8_t>(cell.vector, cell.index);
    case TypeId::kUSmallInt:
      return At<uint16_t>(cell.vector, cell.index);
    case TypeId::kUInteger:
      return At<uint32_t>(cell.vector, cell.index);
    case TypeId::kUBigInt: {
      const uint64_t v = At<uint64_t>(cell.vector, cell.index);
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return MakeError(ErrorKind::kData, Where(col, row) + " value " + std::to_string(v) +
                                               " does not fit in int64");
      }
      return static_cast<int64_t>(v);
    }
    case TypeId::kHugeInt: {
      const auto h = At<duckdb_hugeint>(cell.vector, cell.index);
      const bool fits = (h.upper == 0 && h.lower <= static_cast<uint64_t>(INT64_MAX)) ||
                        (h.upper == -1 && h.lower >= static_cast<uint64_t>(INT64_MIN));
      if (!fits) {
        return MakeError(ErrorKind::kData, Where(col, row) + " HUGEINT does not fit in int64");
      }
      return static_cast<int64_t>(h.lower);
    }
    default:
      return std::unexpected(TypeMismatch(col, row, "int64"));
  }
}

Result<double> QueryResult::GetDouble(uint64_t col, uint64_t row) const {
  DATABOX_ASSIGN_OR_RETURN(Cell cell, Locate(col, row));
  switch (column_type(col)) {
    case TypeId::kFloat:
      return At<float>(cell.vector, cell.index);
    case TypeId::kDouble:
      return At<double>(cell.vector, cell.index);
    case TypeId::kHugeInt:
      return HugeToDouble(At<duckdb_hugeint>(cell.vector, cell.index));
    case TypeId::kDecimal: {
      duckdb_logical_type type = types_[col].get();
      double unscaled = 0;
      switch (duckdb_decimal_internal_type(type)) {
        case DUCKDB_TYPE_SMALLINT:
          unscaled = At<int16_t>(cell.vector, cell.index);
          break;
        case DUCKDB_TYPE_INTEGER:
          unscaled = At<int32_t>(cell.vector, cell.index);
          break;
        case DUCKDB_TYPE_BIGINT:
          unscaled = static_cast<double>(At<int64_t>(cell.vector, cell.index));
          break;
        default:
          unscaled = HugeToDouble(At<duckdb_hugeint>(cell.vector, cell.index));
          break;
      }
      return unscaled / std::pow(10.0, duckdb_decimal_scale(type));
    }
    default: {
      auto as_int = GetInt64(col, row);
      if (as_int) return static_cast<double>(*as_int);
      return std::unexpected(TypeMismatch(col, row, "double"));
    }
  }
}

Result<bool> QueryResult::GetBool(uint64_t col, uint64_t row) const {
  DATABOX_ASSIGN_OR_RETURN(Cell cell, Locate(col, row));
  if (column_type(col) != TypeId::kBoolean) return std::unexpected(TypeMismatch(col, row, "bool"));
  return At<bool>(cell.vector, cell.index);
}

Result<Value> QueryResult::GetValue(uint64_t col, uint64_t row) const {
  DATABOX_ASSIGN_OR_RETURN(Cell cell, Find(col, row));
  auto value = internal::ReadValue(cell.vector, types_[col].get(), cell.index);
  if (!value) return std::unexpected(value.error().WithContext("reading " + Where(col, row)));
  return Value(std::move(*value));
}

Result<std::string> QueryResult::GetAsString(uint64_t col, uint64_t row) const {
  DATABOX_ASSIGN_OR_RETURN(Cell cell, Locate(col, row));
  if (column_type(col) == TypeId::kVarchar) return StringAt(cell.vector, cell.index);
  DATABOX_ASSIGN_OR_RETURN(Value value, GetValue(col, row));
  return value.ToString();
}

}  // namespace databox::duck
