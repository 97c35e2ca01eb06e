#include "cli/table_format.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

#include "duck/json_cells.h"

namespace databox::cli {
namespace {

constexpr std::size_t kColumnGap = 2;
constexpr std::size_t kNarrowestColumn = 4;
constexpr std::string_view kCut = "...";

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string Fit(const std::string& text, std::size_t width) {
  if (DisplayWidth(text) <= width) return text;
  const std::size_t keep = width > kCut.size() ? width - kCut.size() : 0;
  std::size_t chars = 0, end = 0;
  while (end < text.size()) {
    if (!IsContinuationByte(text[end])) {
      if (chars == keep) break;
      ++chars;
    }
    ++end;
  }
  return text.substr(0, end) + std::string(kCut.substr(0, std::min(width, kCut.size())));
}

namespace {

std::string CellText(const duck::QueryResult& result, uint64_t col, uint64_t row) {
  if (result.IsNull(col, row)) return "NULL";
  std::string text = result.GetAsString(col, row).value_or("?");
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return text;
}

//! Narrows the widest column by one until the line fits or every column is at the minimum.
void NarrowToFit(std::vector<std::size_t>& width, std::size_t max_line) {
  auto line = [&] {
    return std::accumulate(width.begin(), width.end(), std::size_t{0}) +
           kColumnGap * (width.empty() ? 0 : width.size() - 1);
  };
  while (line() > max_line) {
    auto widest = std::max_element(width.begin(), width.end());
    if (widest == width.end() || *widest <= kNarrowestColumn) return;
    --*widest;
  }
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace

Result<QueryFormat> ParseQueryFormat(std::string_view name) {
  if (name == "table") return QueryFormat::kTable;
  if (name == "csv") return QueryFormat::kCsv;
  if (name == "json") return QueryFormat::kJson;
  return MakeError(ErrorKind::kConfig,
                   "unknown format '" + std::string(name) + "': expected table, csv or json");
}

std::size_t DisplayWidth(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !IsContinuationByte(c); }));
}

std::string FormatTable(const duck::QueryResult& result, std::size_t max_cell,
                        std::optional<std::size_t> max_line) {
  const std::size_t cols = result.column_count();
  std::vector<std::vector<std::string>> cells(result.row_count() + 1);
  cells[0] = result.column_names();
  for (uint64_t r = 0; r < result.row_count(); ++r) {
    for (uint64_t c = 0; c < cols; ++c) cells[r + 1].push_back(CellText(result, c, r));
  }
  std::vector<std::size_t> width(cols, 0);
  for (const auto& row : cells) {
    for (std::size_t c = 0; c < cols; ++c) {
      width[c] = std::max(width[c], std::min(DisplayWidth(row[c]), max_cell));
    }
  }
  if (max_line) NarrowToFit(width, *max_line);
  std::string out;
  for (std::size_t r = 0; r < cells.size(); ++r) {
    std::string line;
    for (std::size_t c = 0; c < cols; ++c) {
      const std::string cell = Fit(cells[r][c], width[c]);
      line += cell;
      if (c + 1 < cols) line += std::string(width[c] - DisplayWidth(cell) + kColumnGap, ' ');
    }
    out += line + "\n";
    if (r == 0) {
      for (std::size_t c = 0; c < cols; ++c) {
        out += std::string(width[c], '-') + (c + 1 < cols ? std::string(kColumnGap, ' ') : "");
      }
      out += "\n";
    }
  }
  out += "(" + std::to_string(result.row_count()) + " row" + (result.row_count() == 1 ? "" : "s") +
         ")\n";
  return out;
}

std::string FormatCsv(const duck::QueryResult& result) {
  std::string out;
  for (uint64_t c = 0; c < result.column_count(); ++c) {
    out += (c > 0 ? "," : "") + CsvField(result.column_name(c));
  }
  out += "\n";
  for (uint64_t r = 0; r < result.row_count(); ++r) {
    for (uint64_t c = 0; c < result.column_count(); ++c) {
      if (c > 0) out += ",";
      if (!result.IsNull(c, r)) out += CsvField(result.GetAsString(c, r).value_or(""));
    }
    out += "\n";
  }
  return out;
}

std::string FormatJsonLines(const duck::QueryResult& result) {
  std::string out;
  for (uint64_t r = 0; r < result.row_count(); ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (uint64_t c = 0; c < result.column_count(); ++c) {
      row[result.column_name(c)] = duck::CellToJson(result, c, r);
    }
    out += row.dump() + "\n";
  }
  return out;
}

std::string AlignRows(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (std::size_t c = 0; c < row.size(); ++c) {
      width[c] = std::max(width[c], DisplayWidth(row[c]));
    }
  }
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out += row[c];
      if (c + 1 < row.size()) out += std::string(width[c] - DisplayWidth(row[c]) + kColumnGap, ' ');
    }
    while (out.ends_with(' ')) out.pop_back();  // an empty last cell leaves no padding behind
    out += "\n";
  }
  return out;
}

std::string FormatResult(const duck::QueryResult& result, QueryFormat format,
                         std::optional<std::size_t> max_line) {
  switch (format) {
    case QueryFormat::kTable:
      return FormatTable(result, kMaxCellWidth, max_line);
    case QueryFormat::kCsv:
      return FormatCsv(result);
    case QueryFormat::kJson:
      return FormatJsonLines(result);
  }
  return FormatTable(result, kMaxCellWidth, max_line);
}

}  // namespace databox::cli
