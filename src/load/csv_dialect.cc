#include "load/csv_dialect.h"

#include <fstream>
#include <optional>
#include <regex>

#include "duck/quote.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kDelimiters = ",\t;|";  //!< the candidates DuckDB's sniffer tries

//! What sniff_csv told about a file.
struct Sniffed {
  std::string delimiter;
  std::string quote;
  std::string escape;
  int64_t skip_rows = 0;
  bool header = false;
  int64_t columns = 0;
};

//! sniff_csv prints a character it did not find as "(empty)".
std::string Unempty(std::string text) { return text == "(empty)" ? "" : text; }

Result<Sniffed> Sniff(duck::Connection& conn, const fs::path& plain) {
  DATABOX_ASSIGN_OR_RETURN(
      auto result, conn.Query("SELECT Delimiter, Quote, Escape, SkipRows, HasHeader, len(Columns) "
                              "FROM sniff_csv(" +
                              duck::QuoteLiteral(plain.string()) + ")"));
  if (result.row_count() != 1) return MakeError(ErrorKind::kData, "sniff_csv returned no row");
  Sniffed sniffed;
  DATABOX_ASSIGN_OR_RETURN(sniffed.delimiter, result.GetString(0, 0));
  DATABOX_ASSIGN_OR_RETURN(sniffed.quote, result.GetString(1, 0));
  DATABOX_ASSIGN_OR_RETURN(sniffed.escape, result.GetString(2, 0));
  DATABOX_ASSIGN_OR_RETURN(sniffed.skip_rows, result.GetInt64(3, 0));
  DATABOX_ASSIGN_OR_RETURN(sniffed.header, result.GetBool(4, 0));
  DATABOX_ASSIGN_OR_RETURN(sniffed.columns, result.GetInt64(5, 0));
  sniffed.quote = Unempty(sniffed.quote);
  sniffed.escape = Unempty(sniffed.escape);
  return sniffed;
}

std::string FirstLine(const fs::path& plain) {
  std::ifstream in(plain, std::ios::binary);
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

//! The first candidate delimiter outside double quotes in `line`, and the fields it makes.
std::optional<std::pair<char, int64_t>> DelimiterOf(const std::string& line) {
  for (char delimiter : kDelimiters) {
    int64_t fields = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == delimiter && !quoted) ++fields;
    }
    if (fields > 1) return std::pair{delimiter, fields};
  }
  return std::nullopt;
}

//! The refusal of an ambiguous sniff: reads the file with the first line's delimiter and field
//! count, strictly, to name the row at fault.
Error Ambiguous(duck::Connection& conn, const fs::path& file, const fs::path& plain,
                const std::string& why) {
  const std::string line = FirstLine(plain);
  const auto delimiter = DelimiterOf(line);
  const std::string advice =
      "; every row needs as many fields as the header (quote a field that holds the delimiter)";
  if (!delimiter) {
    return Error{ErrorKind::kData,
                 file.string() + ": ambiguous CSV dialect (" + why + ")" + advice};
  }
  std::string columns;
  for (int64_t i = 0; i < delimiter->second; ++i) {
    columns += (i ? ", " : "") + duck::QuoteLiteral("c" + std::to_string(i)) + ": 'VARCHAR'";
  }
  const std::string sql = "SELECT count(*) FROM read_csv(" + duck::QuoteLiteral(plain.string()) +
                          ", auto_detect = false, header = true, strict_mode = true, delim = " +
                          duck::QuoteLiteral(std::string(1, delimiter->first)) +
                          ", quote = '\"', escape = '\"', columns = {" + columns + "})";
  if (auto read = conn.Query(sql); !read) {
    Error error = CsvReadError(read.error(), file);
    error.kind = ErrorKind::kData;
    return error;
  }
  return Error{ErrorKind::kData, file.string() + ": ambiguous CSV dialect (" + why + ")" + advice};
}

}  // namespace

Result<std::string> StrictCsvReader(duck::Connection& conn, const fs::path& file,
                                    const fs::path& plain) {
  auto sniffed = Sniff(conn, plain);
  if (!sniffed) return std::unexpected(CsvReadError(sniffed.error(), file));
  if (sniffed->skip_rows > 0) {
    return std::unexpected(Ambiguous(conn, file, plain,
                                     "the first " + std::to_string(sniffed->skip_rows) +
                                         " line(s) do not fit the dialect of the rest"));
  }
  if (sniffed->columns == 1 && DelimiterOf(FirstLine(plain))) {
    return std::unexpected(Ambiguous(
        conn, file, plain, "DuckDB reads one column, but the first line has a delimiter"));
  }
  return "read_csv(" + duck::QuoteLiteral(plain.string()) +
         ", delim = " + duck::QuoteLiteral(sniffed->delimiter) +
         ", quote = " + duck::QuoteLiteral(sniffed->quote) +
         ", escape = " + duck::QuoteLiteral(sniffed->escape) +
         ", header = " + (sniffed->header ? "true" : "false") +
         ", skip = 0, strict_mode = true, null_padding = false, ignore_errors = false)";
}

Error CsvReadError(const Error& error, const fs::path& file) {
  static const std::regex kLine("CSV Error on Line: ([0-9]+)");
  std::smatch match;
  if (!std::regex_search(error.message, match, kLine)) {
    return error.WithContext("reading " + file.string() + " as csv");
  }
  // DuckDB's "Possible fixes" name read_csv options an ingest does not take.
  const std::string what = error.message.substr(0, error.message.find("\nPossible fixes"));
  return Error{error.kind, file.string() + ":" + match[1].str() + ": " + what};
}

}  // namespace databox::load
