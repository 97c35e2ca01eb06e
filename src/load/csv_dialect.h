// CSV inputs of `databox ingest` are read strictly. DuckDB's sniffer (sniff_csv) tells the
// dialect; the read then states the delimiter, quote, escape and header it found and keeps
// strict_mode, so a row with another number of fields than the header fails naming FILE:LINE
// instead of being read as another dialect. A sniff that is not sure is refused, never guessed:
// one column although the first line holds a delimiter (`,` `;` tab `|`), or lines skipped at
// the top. The refusal names the first row whose field count differs from the first line's
// (FILE:LINE), or says the dialect is ambiguous when there is none.
#pragma once

#include <filesystem>
#include <string>

#include "common/error.h"
#include "duck/connection.h"

namespace databox::load {

//! The read_csv(...) call for `plain` (the decompressed CSV file `file`) with the sniffed
//! dialect stated and strict parsing; a kData error naming `file` (and its line when one row is
//! at fault) when the dialect is ambiguous.
Result<std::string> StrictCsvReader(duck::Connection& conn, const std::filesystem::path& file,
                                    const std::filesystem::path& plain);

//! `error` (DuckDB's, reading `file`) with "FILE:LINE: " in front when DuckDB names the line
//! ("CSV Error on Line: N"); otherwise "reading FILE as csv" as context.
Error CsvReadError(const Error& error, const std::filesystem::path& file);

}  // namespace databox::load
