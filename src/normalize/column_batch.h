// Columnar rows of one table, ready to be appended into DuckDB or written to Parquet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
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
//! The values share one byte buffer (a row is its end offset and a null flag), so a batch
//! holds a few large blocks instead of one allocation per string.
class StringValues {
 public:
  using value_type = std::optional<std::string_view>;

  //! Reads row by row; a value views the column's buffer (valid while the column is unchanged).
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = StringValues::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    const_iterator() = default;
    const_iterator(const StringValues* values, std::size_t row) : values_(values), row_(row) {}
    value_type operator*() const { return (*values_)[row_]; }
    const_iterator& operator++() {
      ++row_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++row_;
      return before;
    }
    bool operator==(const const_iterator& other) const { return row_ == other.row_; }

   private:
    const StringValues* values_ = nullptr;
    std::size_t row_ = 0;
  };

  StringValues() = default;
  //! `nulls` null rows.
  explicit StringValues(std::size_t nulls) : ends_(nulls, 0), valid_(nulls, 0) {}
  StringValues(std::initializer_list<value_type> values);

  std::size_t size() const { return valid_.size(); }
  bool empty() const { return valid_.empty(); }
  //! Bytes of all values together.
  std::size_t bytes() const { return text_.size(); }
  void reserve(std::size_t rows, std::size_t bytes);

  void push_back(std::string_view value);
  void push_null();
  void append_nulls(std::size_t count);
  //! Replaces the last row's value (the column must have a row).
  void replace_back(std::string_view value);

  bool is_null(std::size_t row) const { return valid_[row] == 0; }
  //! The value of a non-null row (empty for a null one).
  std::string_view view(std::size_t row) const {
    const uint64_t begin = row == 0 ? 0 : ends_[row - 1];
    return std::string_view(text_).substr(begin, ends_[row] - begin);
  }
  //! The bytes of rows [first, first + count), back to back (null rows add none).
  std::string_view joined(std::size_t first, std::size_t count) const {
    if (count == 0) return {};
    const uint64_t begin = first == 0 ? 0 : ends_[first - 1];
    return std::string_view(text_).substr(begin, ends_[first + count - 1] - begin);
  }
  value_type operator[](std::size_t row) const {
    if (is_null(row)) return std::nullopt;
    return view(row);
  }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  //! Equal rows (a null row adds no bytes, so equal rows mean equal members).
  friend bool operator==(const StringValues&, const StringValues&) = default;

 private:
  std::string text_;            //!< every value, back to back
  std::vector<uint64_t> ends_;  //!< per row: the offset in text_ where it ends
  std::vector<uint8_t> valid_;  //!< per row: 1 if not null
};

//! The values of one column; the alternative is fixed by the column's data type (ValuesFor).
using ColumnValues = std::variant<BoolValues, Int64Values, DoubleValues, StringValues>;

//! One non-null value after coercion to its column's type.
using Cell = std::variant<bool, int64_t, double, std::string>;

//! Empty values of the physical kind used for `type`, holding `nulls` leading nulls.
ColumnValues ValuesFor(DataType type, std::size_t nulls = 0);

//! Number of rows held by `values`.
std::size_t ValuesSize(const ColumnValues& values);

//! Appends one null row to `values`.
void AppendNull(ColumnValues& values);

//! Makes room for `rows` rows in `values`, and for as many string bytes as `like` holds (a
//! column of the same kind: the previous batch's, so a new batch needs few reallocations).
void ReserveLike(ColumnValues& values, std::size_t rows, const ColumnValues& like);

//! Rows of one table flushed together. `columns[i]` holds the values of `schema.columns[i]`;
//! columns created after some rows were buffered hold nulls for those rows.
struct TableBatch {
  TableSchema schema;                 //!< the table's schema when the batch was flushed
  std::vector<ColumnValues> columns;  //!< one per schema column, each num_rows long
  std::size_t num_rows = 0;           //!< rows in this batch
};

}  // namespace databox::normalize
