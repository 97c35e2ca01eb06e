// Printing query results for people (an aligned table that fits the terminal) and for programs
// (CSV, and JSON lines with typed values: duck/json_cells.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "duck/query_result.h"

namespace databox::cli {

//! The output formats of `databox query`.
enum class QueryFormat { kTable, kCsv, kJson };

//! Characters a table cell shows before it is cut.
inline constexpr std::size_t kMaxCellWidth = 60;

//! The format named `name` ("table", "csv" or "json"); a kConfig error for any other text.
Result<QueryFormat> ParseQueryFormat(std::string_view name);

//! Characters a terminal shows for `text`: UTF-8 code points (continuation bytes not counted).
std::size_t DisplayWidth(std::string_view text);

//! `text` cut to at most `width` characters, the last three "..." when it was cut.
std::string Fit(const std::string& text, std::size_t width);

//! An aligned text table with a header row and a row count. Cells are cut (ending in "...") at
//! `max_cell` characters; with `max_line` set, the widest columns are narrowed further until each
//! line fits in it (no column narrower than 4 characters, so many columns can still overflow).
//! Newlines and tabs in cells print as spaces; NULL prints as NULL.
std::string FormatTable(const duck::QueryResult& result, std::size_t max_cell = kMaxCellWidth,
                        std::optional<std::size_t> max_line = std::nullopt);

//! RFC 4180 CSV: a header row, then one line per row; a field holding a comma, quote, CR or LF
//! is quoted (quotes doubled); NULL is an empty field. Lines end in "\n", as DuckDB's COPY TO
//! writes them.
std::string FormatCsv(const duck::QueryResult& result);

//! One JSON object per row (column name -> typed value, duck/json_cells.h), one per line.
std::string FormatJsonLines(const duck::QueryResult& result);

//! Rows of cells padded to the widest cell of their column, two spaces apart, one per line.
std::string AlignRows(const std::vector<std::vector<std::string>>& rows);

//! `result` in `format`.
std::string FormatResult(const duck::QueryResult& result, QueryFormat format,
                         std::optional<std::size_t> max_line);

}  // namespace databox::cli
