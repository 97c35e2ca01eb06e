// A fully materialized query result with typed access by (column, row).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"
#include "duck/handles_internal.h"
#include "duck/type_id.h"
#include "duck/value.h"

namespace databox::duck {

class QueryResult;

//! One row of a QueryResult; valid while the result lives.
class RowRef {
 public:
  RowRef(const QueryResult* result, uint64_t row) : result_(result), row_(row) {}

  uint64_t index() const { return row_; }
  bool IsNull(uint64_t col) const;
  Result<std::string> GetString(uint64_t col) const;
  Result<int64_t> GetInt64(uint64_t col) const;
  Result<double> GetDouble(uint64_t col) const;
  Result<bool> GetBool(uint64_t col) const;
  Result<std::string> GetAsString(uint64_t col) const;

 private:
  const QueryResult* result_;  //!< not owned
  uint64_t row_;               //!< row index in the result
};

//! Rows of a query, read in full from DuckDB's data chunks. Move-only.
//! Getters fail (kData) on NULL, on a type they cannot convert and on out-of-range indices;
//! check IsNull first where NULLs are expected.
class QueryResult {
 public:
  //! Reads every chunk of `result` (which stays owned by the caller).
  static Result<QueryResult> FromDuckResult(duckdb_result* result);

  QueryResult(QueryResult&&) noexcept = default;
  QueryResult& operator=(QueryResult&&) noexcept = default;

  uint64_t column_count() const { return names_.size(); }
  uint64_t row_count() const { return row_count_; }
  const std::vector<std::string>& column_names() const { return names_; }
  const std::string& column_name(uint64_t col) const { return names_.at(col); }
  //! The column's type family; kInvalid for an out-of-range column.
  TypeId column_type(uint64_t col) const;
  //! The alias of the column's type ("JSON" for DuckDB's JSON type), "" when it has none.
  std::string column_type_alias(uint64_t col) const;
  //! Index of the column called `name`, or kNotFound.
  Result<uint64_t> ColumnIndex(const std::string& name) const;

  //! True for SQL NULL, and for out-of-range indices (there is no value there).
  bool IsNull(uint64_t col, uint64_t row) const;
  //! VARCHAR text, BLOB bytes or ENUM label, unconverted.
  Result<std::string> GetString(uint64_t col, uint64_t row) const;
  //! Any integer type whose value fits in int64 (BOOLEAN not included).
  Result<int64_t> GetInt64(uint64_t col, uint64_t row) const;
  //! FLOAT, DOUBLE, DECIMAL or an integer type, converted to double.
  Result<double> GetDouble(uint64_t col, uint64_t row) const;
  //! BOOLEAN.
  Result<bool> GetBool(uint64_t col, uint64_t row) const;
  //! Any type, as DuckDB's cast to VARCHAR prints it ("[1, 2]", "2024-01-01 00:00:00").
  Result<std::string> GetAsString(uint64_t col, uint64_t row) const;
  //! Any type except UNION/BIT/BIGNUM as a Value, for walking nested values (MAP, LIST, STRUCT).
  Result<Value> GetValue(uint64_t col, uint64_t row) const;

  //! Row iteration: `for (RowRef row : result) ...`.
  class Iterator {
   public:
    Iterator(const QueryResult* result, uint64_t row) : result_(result), row_(row) {}
    RowRef operator*() const { return RowRef(result_, row_); }
    Iterator& operator++() {
      ++row_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return row_ == other.row_; }

   private:
    const QueryResult* result_;
    uint64_t row_;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, row_count_); }

 private:
  //! Where one cell lives.
  struct Cell {
    duckdb_vector vector;
    uint64_t index;
  };

  QueryResult() = default;
  //! The cell at (col, row), or kData for out-of-range indices.
  Result<Cell> Find(uint64_t col, uint64_t row) const;
  //! Like Find, and also kData for a NULL value.
  Result<Cell> Locate(uint64_t col, uint64_t row) const;
  //! "column <name> row <row>", for messages.
  std::string Where(uint64_t col, uint64_t row) const;
  Error TypeMismatch(uint64_t col, uint64_t row, const char* wanted) const;

  std::vector<std::string> names_;               //!< column names
  std::vector<internal::LogicalTypePtr> types_;  //!< column logical types
  std::vector<internal::DataChunkPtr> chunks_;   //!< the data, in order
  std::vector<uint64_t> chunk_starts_;           //!< first row of each chunk
  uint64_t row_count_ = 0;                       //!< rows in all chunks
};

}  // namespace databox::duck
