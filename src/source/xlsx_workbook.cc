#include "source/xlsx_workbook.h"

#include <cstdint>

#include "duck/connection.h"
#include "duck/database.h"
#include "duck/extensions.h"
#include "duck/quote.h"
#include "fileio/s3/s3_xml.h"

namespace databox::source {
namespace {

constexpr std::string_view kDefaultWorkbookPart = "xl/workbook.xml";
constexpr std::string_view kOfficeDocumentType = "/officeDocument";

//! One start (or empty) element found in an XML text.
struct XmlElement {
  std::string_view local_name;  //!< tag name without its namespace prefix
  std::string_view attributes;  //!< raw text between the name and '>' (or '/>')
};

std::string_view LocalName(std::string_view name) {
  const std::size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

//! Start and empty elements of `xml` in document order (comments, declarations and end tags
//! skipped). Enough for the package parts we read; not a general XML parser.
std::vector<XmlElement> StartElements(std::string_view xml) {
  std::vector<XmlElement> out;
  std::size_t at = 0;
  while ((at = xml.find('<', at)) != std::string_view::npos) {
    if (xml.substr(at, 4) == "<!--") {
      const std::size_t end = xml.find("-->", at);
      if (end == std::string_view::npos) break;
      at = end + 3;
      continue;
    }
    const std::size_t close = xml.find('>', at);
    if (close == std::string_view::npos) break;
    const char first = at + 1 < xml.size() ? xml[at + 1] : '>';
    if (first != '/' && first != '?' && first != '!') {
      std::string_view body = xml.substr(at + 1, close - at - 1);
      if (!body.empty() && body.back() == '/') body.remove_suffix(1);
      const std::size_t name_end = body.find_first_of(" \t\r\n");
      const std::string_view name = body.substr(0, name_end);
      out.push_back(
          {LocalName(name), name_end == std::string_view::npos ? "" : body.substr(name_end)});
    }
    at = close + 1;
  }
  return out;
}

//! The decoded value of the unprefixed attribute `name`, if present.
std::optional<std::string> Attribute(std::string_view attributes, std::string_view name) {
  std::size_t at = 0;
  while (at < attributes.size()) {
    const std::size_t eq = attributes.find('=', at);
    if (eq == std::string_view::npos) return std::nullopt;
    std::string_view key = attributes.substr(at, eq - at);
    const std::size_t k0 = key.find_first_not_of(" \t\r\n");
    const std::size_t k1 = key.find_last_not_of(" \t\r\n");
    key = k0 == std::string_view::npos ? "" : key.substr(k0, k1 - k0 + 1);
    const std::size_t quote = attributes.find_first_of("\"'", eq);
    if (quote == std::string_view::npos) return std::nullopt;
    const std::size_t end = attributes.find(attributes[quote], quote + 1);
    if (end == std::string_view::npos) return std::nullopt;
    if (key == name) return fileio::s3::XmlUnescape(attributes.substr(quote + 1, end - quote - 1));
    at = end + 1;
  }
  return std::nullopt;
}

//! The workbook part named by the package relationships, or the conventional path.
std::string WorkbookPart(const ZipArchive& archive) {
  auto rels = archive.Read("_rels/.rels");
  if (!rels) return std::string(kDefaultWorkbookPart);
  for (const XmlElement& e : StartElements(*rels)) {
    if (e.local_name != "Relationship") continue;
    const auto type = Attribute(e.attributes, "Type");
    const auto target = Attribute(e.attributes, "Target");
    if (type && target && type->ends_with(kOfficeDocumentType)) {
      return target->starts_with('/') ? target->substr(1) : *target;
    }
  }
  return std::string(kDefaultWorkbookPart);
}

}  // namespace

Result<std::vector<std::string>> ListSheets(const ZipArchive& archive) {
  const std::string part = WorkbookPart(archive);
  auto xml = archive.Read(part);
  if (!xml) {
    return MakeError(ErrorKind::kData, "xlsx: the archive has no workbook part " + part + " (" +
                                           xml.error().message + ")");
  }
  std::vector<std::string> names;
  for (const XmlElement& e : StartElements(*xml)) {
    if (e.local_name != "sheet") continue;
    names.push_back(Attribute(e.attributes, "name").value_or(""));
  }
  return names;
}

Result<std::vector<SheetRow>> ReadSheetRows(const std::filesystem::path& path,
                                            const std::string& sheet) {
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open("", duck::DatabaseOptions{.threads = 1}));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  DATABOX_RETURN_IF_ERROR(duck::LoadExtension(conn, "excel"));
  // all_varchar: cells come back as written, so our checks (not DuckDB's type sniffing) decide
  // what is a number; stop_at_empty=false: an empty row inside the data is reported, not a
  // silent end of the table.
  const std::string sql = "SELECT * FROM read_xlsx(" + duck::QuoteLiteral(path.string()) +
                          ", sheet = " + duck::QuoteLiteral(sheet) +
                          ", header = false, all_varchar = true, stop_at_empty = false)";
  auto result = conn.Query(sql);
  if (!result) {
    return std::unexpected(result.error().WithContext("xlsx " + path.string() + " sheet " + sheet));
  }
  std::vector<SheetRow> rows;
  rows.reserve(result->row_count());
  for (uint64_t r = 0; r < result->row_count(); ++r) {
    SheetRow row(result->column_count());
    for (uint64_t c = 0; c < result->column_count(); ++c) {
      if (result->IsNull(c, r)) continue;
      DATABOX_ASSIGN_OR_RETURN(row[c], result->GetString(c, r));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace databox::source
