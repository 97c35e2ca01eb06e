#include "duck/data_chunk.h"

#include <cstring>
#include <limits>
#include <string>

#include "duck/handles_internal.h"

namespace databox::duck {

Result<DataChunk> DataChunk::Make(const std::vector<duckdb_type>& types) {
  std::vector<internal::LogicalTypePtr> owned;
  std::vector<duckdb_logical_type> raw;
  for (duckdb_type type : types) {
    if (type == DUCKDB_TYPE_DECIMAL || type == DUCKDB_TYPE_INVALID || type == DUCKDB_TYPE_ANY) {
      return MakeError(ErrorKind::kInternal, "DuckDB data chunk: column type " +
                                                 std::to_string(static_cast<int>(type)) +
                                                 " needs parameters; use VARCHAR and a cast");
    }
    owned.emplace_back(duckdb_create_logical_type(type));
    raw.push_back(owned.back().get());
  }
  duckdb_data_chunk chunk = duckdb_create_data_chunk(raw.data(), raw.size());
  if (chunk == nullptr) {
    return MakeError(ErrorKind::kInternal, "DuckDB could not create a data chunk");
  }
  return DataChunk(chunk, true);
}

DataChunk DataChunk::Borrow(duckdb_data_chunk chunk) { return DataChunk(chunk, false); }

uint64_t DataChunk::Capacity() { return duckdb_vector_size(); }

DataChunk::DataChunk(duckdb_data_chunk chunk, bool owned) : chunk_(chunk, Destroyer{owned}) {
  const idx_t columns = duckdb_data_chunk_get_column_count(chunk);
  for (idx_t i = 0; i < columns; ++i) vectors_.push_back(duckdb_data_chunk_get_vector(chunk, i));
  validity_.assign(columns, nullptr);
}

void DataChunk::ReferenceString(uint64_t column, uint64_t row, std::string_view value) {
  if (value.size() > std::numeric_limits<uint32_t>::max()) {
    SetString(column, row, value);  // DuckDB's own limit applies
    return;
  }
  auto* slot = static_cast<duckdb_string_t*>(duckdb_vector_get_data(vectors_[column])) + row;
  const auto length = static_cast<uint32_t>(value.size());
  if (value.size() <= sizeof(slot->value.inlined.inlined)) {
    slot->value.inlined.length = length;
    std::memset(slot->value.inlined.inlined, 0, sizeof(slot->value.inlined.inlined));
    if (!value.empty()) std::memcpy(slot->value.inlined.inlined, value.data(), value.size());
    return;
  }
  slot->value.pointer.length = length;
  std::memcpy(slot->value.pointer.prefix, value.data(), sizeof(slot->value.pointer.prefix));
  // DuckDB reads through this pointer and never writes: the value stays the caller's.
  slot->value.pointer.ptr = const_cast<char*>(value.data());
}

void DataChunk::SetNull(uint64_t column, uint64_t row) {
  uint64_t*& validity = validity_[column];
  if (validity == nullptr) {
    duckdb_vector_ensure_validity_writable(vectors_[column]);
    validity = duckdb_vector_get_validity(vectors_[column]);
  }
  duckdb_validity_set_row_invalid(validity, row);
}

void DataChunk::SetAllNull(uint64_t column) {
  for (uint64_t row = 0; row < Capacity(); ++row) SetNull(column, row);
}

void DataChunk::Reset() {
  duckdb_data_chunk_reset(chunk_.get());
  validity_.assign(vectors_.size(), nullptr);
}

}  // namespace databox::duck
