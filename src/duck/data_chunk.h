// Column-at-a-time input for DuckDB: a data chunk filled vector by vector, then handed to an
// Appender whole (Appender::AppendChunk) instead of one append call per value.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "duckdb.h"

namespace databox::duck {

//! A DuckDB data chunk of fixed column types and at most Capacity() rows. Fill each column
//! (Data / SetString / SetNull), SetSize, append, Reset, repeat. Fixed-width columns are written
//! through Data<T>(): BOOLEAN bool, BIGINT int64_t, DOUBLE double, DATE int32_t days,
//! TIMESTAMP/TIMESTAMP_TZ/TIME int64_t microseconds. VARCHAR and BLOB through SetString.
class DataChunk {
 public:
  //! A chunk with one column per type id. Parameterized types (DECIMAL, ...) are not accepted:
  //! fill such a column as VARCHAR and let the appender cast it to the table's type.
  static Result<DataChunk> Make(const std::vector<duckdb_type>& types);

  //! A view of a chunk DuckDB owns (a table function's output): same filling calls, nothing is
  //! destroyed when the view goes away.
  static DataChunk Borrow(duckdb_data_chunk chunk);

  //! Rows a chunk holds (DuckDB's vector size, 2048).
  static uint64_t Capacity();

  DataChunk(DataChunk&&) noexcept = default;
  DataChunk& operator=(DataChunk&&) noexcept = default;
  ~DataChunk() = default;

  uint64_t column_count() const { return vectors_.size(); }

  //! The values of fixed-width column `column`, Capacity() long.
  template <typename T>
  T* Data(uint64_t column) {
    return static_cast<T*>(duckdb_vector_get_data(vectors_[column]));
  }
  //! Copies `value` into row `row` of a VARCHAR (valid UTF-8) or BLOB column.
  void SetString(uint64_t column, uint64_t row, std::string_view value) {
    duckdb_vector_assign_string_element_len(vectors_[column], row, value.data(), value.size());
  }
  //! Points row `row` of a VARCHAR or BLOB column at `value` without copying it (values of up to
  //! 12 bytes are held in the chunk itself). The bytes must stay alive and unchanged until DuckDB
  //! is done with the chunk: the append returned, or the query scanning it finished. Nothing here
  //! checks a VARCHAR value: it must be valid UTF-8.
  void ReferenceString(uint64_t column, uint64_t row, std::string_view value);
  //! Marks row `row` of `column` NULL.
  void SetNull(uint64_t column, uint64_t row);
  //! Marks every row of `column` NULL.
  void SetAllNull(uint64_t column);
  //! Sets the number of rows filled.
  void SetSize(uint64_t rows) { duckdb_data_chunk_set_size(chunk_.get(), rows); }
  //! Empties the chunk for refilling (all rows valid again, size 0).
  void Reset();

  duckdb_data_chunk handle() const { return chunk_.get(); }

 private:
  struct Destroyer {
    bool owned = true;  //!< false for a Borrow()ed chunk
    void operator()(duckdb_data_chunk chunk) const {
      if (owned) duckdb_destroy_data_chunk(&chunk);
    }
  };
  DataChunk(duckdb_data_chunk chunk, bool owned);

  std::unique_ptr<_duckdb_data_chunk, Destroyer> chunk_;  //!< never null when live
  std::vector<duckdb_vector> vectors_;                    //!< owned by the chunk
  std::vector<uint64_t*> validity_;                       //!< per column; null until a NULL
};

}  // namespace databox::duck
