// Printing query results for people (aligned columns) and machines (JSON lines).
#pragma once

#include <string>

#include "duck/query_result.h"

namespace databox::cli {

//! An aligned text table with a header row; long cells are cut at `max_width` characters.
std::string FormatTable(const duck::QueryResult& result, std::size_t max_width = 60);
//! One JSON object per row, values as DuckDB prints them (NULL as null).
std::string FormatJsonLines(const duck::QueryResult& result);

}  // namespace databox::cli
