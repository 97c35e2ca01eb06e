#include "sources/avonet/avonet.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "common/redact.h"
#include "source/transform.h"
#include "sources/avonet/xlsx_archive.h"
#include "sources/avonet/xlsx_workbook.h"

namespace databox::source {
namespace {

//! Problems found in the cells, reported together.
class Problems {
 public:
  explicit Problems(int max_listed) : max_listed_(max_listed) {}
  void Add(std::string message) {
    if (static_cast<int>(listed_.size()) < max_listed_) listed_.push_back(std::move(message));
    ++count_;
  }
  bool empty() const { return count_ == 0; }
  //! One kData error listing the problems.
  Error ToError(const std::string& label, const std::string& sheet) const {
    std::string message = label + ": " + std::to_string(count_) + " problem" +
                          (count_ == 1 ? "" : "s") + " in sheet " + sheet +
                          " (nothing was published; the file is not the pinned snapshot or the "
                          "expected layout changed):";
    for (const std::string& line : listed_) message += "\n  " + line;
    if (count_ > static_cast<int64_t>(listed_.size())) {
      message +=
          "\n  ... and " + std::to_string(count_ - static_cast<int64_t>(listed_.size())) + " more";
    }
    return Error{ErrorKind::kData, std::move(message)};
  }

 private:
  int max_listed_;
  std::vector<std::string> listed_;
  int64_t count_ = 0;
};

std::string_view Trim(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

//! NA and blank cells are missing values.
bool IsMissing(const std::optional<std::string>& cell) {
  if (!cell) return true;
  const std::string_view t = Trim(*cell);
  return t.empty() || t == "NA";
}

bool IsEmptyRow(const SheetRow& row) {
  for (const auto& cell : row) {
    if (cell && !Trim(*cell).empty()) return false;
  }
  return true;
}

std::string Quoted(std::string_view text) {
  constexpr std::size_t kMaxQuoted = 80;
  return "'" + std::string(text.substr(0, kMaxQuoted)) + (text.size() > kMaxQuoted ? "...'" : "'");
}

std::string FormatBound(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

//! "> 0", ">= 1 and <= 3", ...
std::string RangeText(const AvonetColumn& c) {
  std::string text;
  if (c.min) text += (c.min_exclusive ? "> " : ">= ") + FormatBound(*c.min);
  if (c.max) text += (text.empty() ? "<= " : " and <= ") + FormatBound(*c.max);
  return text;
}

//! The JSON value of one present cell, or a problem description.
std::expected<Json, std::string> ConvertCell(std::string_view text, const AvonetColumn& column) {
  if (column.type == CellType::kText) return Json(std::string(text));
  const std::string_view t = Trim(text);
  if (column.type == CellType::kYesNo) {
    if (t == "YES" || t == "NO") return Json(t == "YES");
    return std::unexpected("is " + Quoted(text) + ", expected YES or NO");
  }
  double value = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(value)) {
    return std::unexpected("is " + Quoted(text) + ", expected a number");
  }
  if (column.type == CellType::kInteger &&
      (value != std::floor(value) || std::fabs(value) > 9.0e15)) {
    return std::unexpected("is " + Quoted(text) + ", expected a whole number");
  }
  const bool below =
      column.min && (column.min_exclusive ? !(value > *column.min) : !(value >= *column.min));
  const bool above = column.max && !(value <= *column.max);
  if (below || above) {
    return std::unexpected("is " + Quoted(text) + ", expected " + RangeText(column));
  }
  if (column.type == CellType::kInteger) return Json(static_cast<int64_t>(value));
  return Json(value);
}

Status CheckSheets(const std::filesystem::path& path, const AvonetOptions& options) {
  DATABOX_ASSIGN_OR_RETURN(ZipArchive archive, ZipArchive::Open(path));
  auto sheets = ListSheets(archive);
  if (!sheets) return std::unexpected(sheets.error().WithContext(options.label));
  if (sheets->size() == 1 && sheets->front() == options.sheet) return Ok();
  std::string found;
  for (const std::string& s : *sheets) found += (found.empty() ? "" : ", ") + Quoted(s);
  return MakeError(ErrorKind::kData, options.label + ": sheet check failed: the workbook has " +
                                         std::to_string(sheets->size()) + " sheet" +
                                         (sheets->size() == 1 ? "" : "s") + " (" + found +
                                         "), expected exactly one sheet " + Quoted(options.sheet));
}

Status CheckHeader(const SheetRow& header, const AvonetOptions& options) {
  const std::string prefix = options.label + ": header check failed: ";
  for (std::size_t i = 0; i < options.columns.size(); ++i) {
    const std::string& want = options.columns[i].header;
    const std::string col = "column " + std::to_string(i + 1);
    if (i >= header.size() || !header[i]) {
      return MakeError(ErrorKind::kData, prefix + col + " is empty, expected " + Quoted(want));
    }
    if (*header[i] != want) {
      return MakeError(ErrorKind::kData,
                       prefix + col + " is " + Quoted(*header[i]) + ", expected " + Quoted(want));
    }
  }
  for (std::size_t i = options.columns.size(); i < header.size(); ++i) {
    if (header[i] && !Trim(*header[i]).empty()) {
      return MakeError(ErrorKind::kData, prefix + "extra column " + std::to_string(i + 1) + " " +
                                             Quoted(*header[i]) + ", expected " +
                                             std::to_string(options.columns.size()) + " columns");
    }
  }
  return Ok();
}

}  // namespace

Result<std::vector<Json>> ReadAvonetWorkbook(const std::filesystem::path& path,
                                             const AvonetOptions& options,
                                             const AvonetOrigin& origin) {
  DATABOX_ASSIGN_OR_RETURN(FileFacts facts, ComputeFileFacts(path));
  DATABOX_RETURN_IF_ERROR(CheckPinnedFile(facts, options.pinned, options.label));
  DATABOX_RETURN_IF_ERROR(CheckSheets(path, options));
  auto read = ReadSheetRows(path, options.sheet);
  if (!read) return std::unexpected(read.error().WithContext(options.label));
  std::vector<SheetRow> rows = std::move(*read);
  while (!rows.empty() && IsEmptyRow(rows.back())) rows.pop_back();
  if (rows.empty()) {
    return MakeError(ErrorKind::kData,
                     options.label + ": header check failed: sheet " + options.sheet + " is empty");
  }
  DATABOX_RETURN_IF_ERROR(CheckHeader(rows.front(), options));
  const int64_t data_rows = static_cast<int64_t>(rows.size()) - 1;
  if (options.row_count && data_rows != *options.row_count) {
    return MakeError(ErrorKind::kData, options.label + ": row count check failed: sheet " +
                                           options.sheet + " has " + std::to_string(data_rows) +
                                           " data rows, expected " +
                                           std::to_string(*options.row_count));
  }

  // Provenance values are the same for every record.
  Json provenance = Json::object();
  provenance["dataset_doi"] = options.provenance.dataset_doi;
  provenance["dataset_version"] = options.provenance.dataset_version;
  provenance["dataset_license"] = options.provenance.dataset_license;
  provenance["source_file_id"] = options.provenance.source_file_id;
  provenance["source_file_md5"] = facts.md5;
  provenance["source_url"] = RedactUrl(origin.url);
  provenance["loaded_at"] = FormatTimestamp(origin.loaded_at);

  Problems problems(options.max_reported_problems);
  //! Per unique column: value -> first sheet row holding it.
  std::vector<std::unordered_map<std::string, std::size_t>> seen(options.unique_columns.size());
  std::vector<Json> records;
  records.reserve(rows.size() - 1);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const SheetRow& row = rows[r];
    const std::string where = "row " + std::to_string(r + 1);  // sheet row number (1 = header)
    if (IsEmptyRow(row)) {
      problems.Add("value check: " + where + " is empty");
      continue;
    }
    Json record = Json::object();
    for (std::size_t c = 0; c < options.columns.size(); ++c) {
      const AvonetColumn& column = options.columns[c];
      const std::optional<std::string>& cell = c < row.size() ? row[c] : std::nullopt;
      if (IsMissing(cell)) {
        if (column.required) {
          problems.Add("value check: " + where + " column " + Quoted(column.header) +
                       " is NA or blank, a value is required");
        }
        record[column.name] = nullptr;
        continue;
      }
      auto value = ConvertCell(*cell, column);
      if (!value) {
        problems.Add("value check: " + where + " column " + Quoted(column.header) + " " +
                     value.error());
        record[column.name] = nullptr;
        continue;
      }
      record[column.name] = std::move(*value);
    }
    for (std::size_t c = options.columns.size(); c < row.size(); ++c) {
      if (row[c] && !Trim(*row[c]).empty()) {
        problems.Add("value check: " + where + " has a value in column " + std::to_string(c + 1) +
                     ", beyond the header");
      }
    }
    for (std::size_t u = 0; u < options.unique_columns.size(); ++u) {
      const Json& v = record[options.unique_columns[u]];
      if (!v.is_string()) continue;  // missing values are reported by the required check
      const auto [it, inserted] = seen[u].emplace(v.get<std::string>(), r + 1);
      if (!inserted) {
        problems.Add("unique check: " + options.unique_columns[u] + " " +
                     Quoted(v.get<std::string>()) + " appears in row " +
                     std::to_string(it->second) + " and " + where);
      }
    }
    record.update(provenance);
    records.push_back(std::move(record));
  }
  if (!problems.empty()) return std::unexpected(problems.ToError(options.label, options.sheet));
  return records;
}

Result<AvonetExtract> ExtractAvonet(const registry::Source& source, const AvonetInput& input,
                                    const LoadContext& context) {
  DATABOX_ASSIGN_OR_RETURN(AvonetOptions options, AvonetOptionsFor(source));
  if (source.resources.size() != 1) {
    return MakeError(ErrorKind::kConfig, "source " + source.name +
                                             ": a file source declares exactly one resource "
                                             "(its table), found " +
                                             std::to_string(source.resources.size()));
  }
  std::filesystem::path path;
  if (input.local_file) {
    path = *input.local_file;
  } else {
    if (input.client == nullptr) {
      return MakeError(ErrorKind::kInternal,
                       "source " + source.name + ": no HTTP client and no --file given");
    }
    DATABOX_ASSIGN_OR_RETURN(DownloadedFile file,
                             DownloadPinnedFile(*input.client, *source.file, options.label,
                                                input.work_dir / (source.name + ".xlsx")));
    path = file.path;
  }
  const AvonetOrigin origin{source.file->url, context.loaded_at};
  DATABOX_ASSIGN_OR_RETURN(std::vector<Json> records, ReadAvonetWorkbook(path, options, origin));
  AvonetExtract out;
  out.table = source.resources.front().name;
  out.primary_key = source.resources.front().primary_key;
  out.records = std::move(records);
  DATABOX_ASSIGN_OR_RETURN(out.facts, ComputeFileFacts(path));
  return out;
}

}  // namespace databox::source
