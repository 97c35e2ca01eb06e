#include "cli/table_format.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace databox::cli {

std::string FormatTable(const duck::QueryResult& result, std::size_t max_width) {
  const std::size_t cols = result.column_count();
  std::vector<std::vector<std::string>> cells(result.row_count() + 1);
  cells[0] = result.column_names();
  for (uint64_t r = 0; r < result.row_count(); ++r) {
    for (uint64_t c = 0; c < cols; ++c) {
      std::string v = result.IsNull(c, r) ? "NULL" : result.GetAsString(c, r).value_or("?");
      if (v.size() > max_width) v = v.substr(0, max_width - 3) + "...";
      std::replace(v.begin(), v.end(), '\n', ' ');
      cells[r + 1].push_back(std::move(v));
    }
  }
  std::vector<std::size_t> width(cols, 0);
  for (const auto& row : cells) {
    for (std::size_t c = 0; c < cols; ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (std::size_t r = 0; r < cells.size(); ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      out += cells[r][c];
      if (c + 1 < cols) out += std::string(width[c] - cells[r][c].size() + 2, ' ');
    }
    out += "\n";
    if (r == 0) {
      for (std::size_t c = 0; c < cols; ++c) {
        out += std::string(width[c], '-') + (c + 1 < cols ? "  " : "");
      }
      out += "\n";
    }
  }
  out += "(" + std::to_string(result.row_count()) + " row" + (result.row_count() == 1 ? "" : "s") +
         ")\n";
  return out;
}

std::string FormatJsonLines(const duck::QueryResult& result) {
  std::string out;
  for (uint64_t r = 0; r < result.row_count(); ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (uint64_t c = 0; c < result.column_count(); ++c) {
      const std::string& name = result.column_names()[c];
      if (result.IsNull(c, r)) {
        row[name] = nullptr;
      } else {
        row[name] = result.GetAsString(c, r).value_or("");
      }
    }
    out += row.dump() + "\n";
  }
  return out;
}

}  // namespace databox::cli
