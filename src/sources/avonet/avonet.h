// AVONET species traits (kind = file): the pinned figshare workbook (Supplementary dataset 1,
// sheet AVONET2_eBird), validated in full before any record leaves this module, then turned
// into records in the reference's column layout (names, types, NOT NULL) with provenance
// columns for table species_traits (replace).
// See docs/avonet.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "http/client.h"
#include "registry/model.h"
#include "source/context.h"
#include "source/file_source.h"
#include "source/records.h"

namespace databox::source {

//! The pinned snapshot's identity (figshare file 34480856 of DOI 10.6084/m9.figshare.16586228.v7).
inline constexpr int64_t kAvonetSizeBytes = 21'524'673;
inline constexpr std::string_view kAvonetMd5 = "1445afdcfb6df784010c2ca034544bc8";
inline constexpr std::string_view kAvonetSheet = "AVONET2_eBird";
inline constexpr int64_t kAvonetRowCount = 10'661;

enum class CellType {
  kText,     //!< kept as written
  kInteger,  //!< a whole number (written "3" or "3.0"), emitted as a JSON integer
  kNumber,   //!< a finite decimal number, emitted as a JSON double
  kYesNo,    //!< exactly YES or NO, emitted as a JSON bool
};

//! One expected column: its header text, output name, type and allowed range.
struct AvonetColumn {
  std::string header;  //!< exact header cell text, e.g. "Beak.Length_Culmen"
  std::string name;    //!< output column, e.g. "beak_length_culmen_mm"
  CellType type = CellType::kText;
  bool required = false;       //!< NA/blank is an error
  std::optional<double> min;   //!< numbers: lowest allowed value
  bool min_exclusive = false;  //!< numbers: the value must be > min (e.g. masses)
  std::optional<double> max;   //!< numbers: highest allowed value (inclusive)
};

//! The 31 columns of sheet AVONET2_eBird, in sheet order, with the reference's output names.
const std::vector<AvonetColumn>& DefaultAvonetColumns();

//! The constant provenance of the snapshot, added to every record.
struct AvonetProvenance {
  std::string dataset_doi = "10.6084/m9.figshare.16586228.v7";
  std::string dataset_version = "v7";
  std::string dataset_license = "CC BY 4.0";
  int64_t source_file_id = 34'480'856;
};

//! One column of table species_traits: name, dlt data type and nullability.
struct AvonetTableColumn {
  std::string name;
  std::string type;  //!< text, bigint, double, bool or timestamp
  bool nullable = true;
};

//! The columns of species_traits in the reference's order: the data columns of
//! DefaultAvonetColumns (types from their cell types, NOT NULL where required), then dataset_doi,
//! dataset_version, dataset_license, source_file_id, source_file_md5, source_url and loaded_at
//! (all NOT NULL).
const std::vector<AvonetTableColumn>& AvonetTableColumns();

//! `declared` (the registry's species_traits resource) with every column of AvonetTableColumns
//! as a typed hint, in that order (Resource::columns, column_order): the table a load creates and
//! the placeholder view before the first load have exactly these columns.
registry::Resource AvonetResource(const registry::Resource& declared);

//! Everything the validation checks; defaults are the real snapshot's values, so tests can
//! describe small synthetic workbooks by overriding them.
struct AvonetOptions {
  std::string label = "avonet";  //!< prefix of every message (the source name)
  PinnedFile pinned{kAvonetSizeBytes, std::string(kAvonetMd5)};
  std::string sheet = std::string(kAvonetSheet);       //!< the one sheet the workbook must have
  std::optional<int64_t> row_count = kAvonetRowCount;  //!< exact data rows; unset = any
  std::vector<AvonetColumn> columns = DefaultAvonetColumns();
  //! Output names of columns whose values must be unique (and present).
  std::vector<std::string> unique_columns = {"source_scientific_name", "avibase_id"};
  //! Constant columns added to every record.
  AvonetProvenance provenance;
  //! Most problems listed in one error (the count of the rest is given).
  int max_reported_problems = 20;
};

//! Options for `source` (kind = file): [source.file] values where set, the real snapshot's
//! values otherwise; provenance = the AVONET defaults overlaid with [source.file].provenance.
//! kConfig when the source is not kind file, a provenance key is not one of dataset_doi,
//! dataset_version, dataset_license, source_file_id, or source_file_id is not a whole number.
Result<AvonetOptions> AvonetOptionsFor(const registry::Source& source);

//! Where the records came from, added to every record.
struct AvonetOrigin {
  std::string url;  //!< the public file URL (credentials redacted); `source_url`
  std::chrono::system_clock::time_point loaded_at;  //!< `loaded_at`
};

//! Validates the workbook at `path` and returns its records, or the first failed check:
//! size, md5, sheet (exactly one, named options.sheet), header (exact column texts, in order),
//! row count, then every cell (NA/blank -> null, required values, integers, YES/NO, numeric
//! ranges) and unique values, all of which are reported together. Every message names its
//! check, e.g. "avonet: header check failed: column 7 is 'Foo', expected 'Beak.Length_Culmen'";
//! a cell's names its sheet row and column header. Records hold the columns in sheet order, then
//! dataset_doi, dataset_version, dataset_license, source_file_id, `source_file_md5`,
//! `source_url` and `loaded_at` ("YYYY-MM-DD HH:MM:SS.ffffff", UTC).
Result<std::vector<Json>> ReadAvonetWorkbook(const std::filesystem::path& path,
                                             const AvonetOptions& options,
                                             const AvonetOrigin& origin);

//! Where the workbook comes from for one run.
struct AvonetInput {
  std::optional<std::filesystem::path> local_file;  //!< `--file PATH`: no download
  http::HttpClient* client = nullptr;  //!< downloads (no redirects followed); not owned
  std::filesystem::path work_dir;      //!< the download goes to <work_dir>/<source>.xlsx
};

//! The validated table, ready for one atomic replace.
struct AvonetExtract {
  std::string table;                     //!< the source's resource, e.g. species_traits
  std::vector<std::string> primary_key;  //!< e.g. {"avibase_id"}
  std::vector<Json> records;             //!< every row; empty only if the sheet is
  FileFacts facts;                       //!< size and MD5 of the validated file
};

//! The whole extract step of an AVONET load: the local file or a download (DownloadPinnedFile),
//! then ReadAvonetWorkbook. Nothing is returned unless every check passed.
Result<AvonetExtract> ExtractAvonet(const registry::Source& source, const AvonetInput& input,
                                    const LoadContext& context);

}  // namespace databox::source
