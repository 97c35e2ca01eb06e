#include "sources/avonet/xlsx_workbook.h"

#include <cstdint>

#include "common/xml.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "duck/extensions.h"
#include "duck/quote.h"

namespace databox::source {
namespace {

constexpr std::string_view kRelationshipsPart = "_rels/.rels";
constexpr std::string_view kDefaultWorkbookPart = "xl/workbook.xml";
constexpr std::string_view kOfficeDocumentType = "/officeDocument";

//! The package part `part` of the archive, read as XML. kData when it is not well-formed.
Result<XmlDocument> ParsePart(const std::string& xml, std::string_view part) {
  Result<XmlDocument> doc = XmlDocument::Parse(xml, "xlsx: package part " + std::string(part));
  if (!doc) {
    return MakeError(ErrorKind::kData,
                     doc.error().message + "; the file is damaged or not an .xlsx workbook");
  }
  return doc;
}

//! The workbook part named by the package relationships, or the conventional path when the
//! package has none.
Result<std::string> WorkbookPart(const ZipArchive& archive) {
  auto rels = archive.Read(std::string(kRelationshipsPart));
  if (!rels) return std::string(kDefaultWorkbookPart);
  DATABOX_ASSIGN_OR_RETURN(XmlDocument doc, ParsePart(*rels, kRelationshipsPart));
  for (const XmlElement& relationship : doc.Find("Relationship")) {
    const auto type = relationship.Attribute("Type");
    const auto target = relationship.Attribute("Target");
    if (type && target && type->ends_with(kOfficeDocumentType)) {
      return target->starts_with('/') ? target->substr(1) : *target;
    }
  }
  return std::string(kDefaultWorkbookPart);
}

}  // namespace

Result<std::vector<std::string>> ListSheets(const ZipArchive& archive) {
  DATABOX_ASSIGN_OR_RETURN(const std::string part, WorkbookPart(archive));
  auto xml = archive.Read(part);
  if (!xml) {
    return MakeError(ErrorKind::kData, "xlsx: the archive has no workbook part " + part + " (" +
                                           xml.error().message + ")");
  }
  DATABOX_ASSIGN_OR_RETURN(XmlDocument workbook, ParsePart(*xml, part));
  std::vector<std::string> names;
  for (const XmlElement& sheet : workbook.Find("sheet")) {
    names.push_back(sheet.Attribute("name").value_or(""));
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
