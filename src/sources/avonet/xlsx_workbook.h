// Reading an XLSX workbook: its sheet names (from the ZIP container and workbook XML) and the
// cells of one sheet as text (through DuckDB's excel extension, read_xlsx).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "sources/avonet/xlsx_archive.h"

namespace databox::source {

//! One sheet row: a cell's text as stored (numbers as written, e.g. "27.7" or "3.0"), or
//! nullopt for an empty cell.
using SheetRow = std::vector<std::optional<std::string>>;

//! The sheet names of a workbook, in workbook order. The workbook part is found through the
//! package relationships (_rels/.rels), falling back to xl/workbook.xml. kData when the archive
//! holds no workbook part.
Result<std::vector<std::string>> ListSheets(const ZipArchive& archive);

//! Every row of sheet `sheet` of the workbook at `path`, from its first row (the header, if the
//! sheet has one) to the last row with a cell, empty rows included. Cells are untyped text.
//! Loads DuckDB's excel extension from the project's extension directory (kNotFound when it is
//! not installed: run scripts/setup).
Result<std::vector<SheetRow>> ReadSheetRows(const std::filesystem::path& path,
                                            const std::string& sheet);

}  // namespace databox::source
