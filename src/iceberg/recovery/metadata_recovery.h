// Choosing a table's current metadata file from the files in its metadata folder alone, when
// the catalog that held the pointer is lost (`databox catalog recover --from-warehouse`,
// docs/catalog_recovery.md).
//
// A commit writes metadata file vN+1 and then swaps the catalog's pointer; a crash between the
// two leaves a complete, valid vN+1 that was never committed. So a candidate must be
// *confirmed*: named in some metadata file's metadata-log (the commit that wrote that file read
// it from the catalog as current, so it was committed), or named by a commit marker the catalog
// wrote after its swap (the caller passes those in). It must also be complete and consistent:
// it parses and validates; its metadata-log names only older versions and not itself; no
// snapshot's sequence number exceeds last-sequence-number; the current snapshot's manifest
// list, manifests, data files and delete files all exist. Candidates are tried newest first
// (by last-updated-ms, then version); the first confirmed, consistent one is chosen, and every
// newer one is reported with why it was refused.
#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {

//! A metadata file that was not chosen, and why.
struct RefusedMetadata {
  std::string location;
  std::string reason;
  bool unconfirmed = false;  //!< refused only because no evidence says it was committed
};

//! The outcome for one table.
struct MetadataChoice {
  std::optional<std::string> location;  //!< the chosen file; nullopt: none qualifies
  std::optional<TableMetadata> metadata;
  std::string confirmed_by;  //!< "metadata-log", "commit marker", or "unconfirmed (opted in)"
  //! Files that do not parse, then the parsed files newer than the chosen one (all of them
  //! when none was chosen), newest first.
  std::vector<RefusedMetadata> refused;
};

struct MetadataChoiceOptions {
  //! Also accept a file no evidence confirms (a crashed commit's file qualifies then).
  bool include_unconfirmed = false;
};

//! Chooses among `metadata_files` (one table's *.metadata.json locations) as the file comment
//! says. `marker_confirmed` holds the locations commit markers name. Errors only when `io`
//! fails in a way that is not about one file (a missing or unreadable file is a refusal).
Result<MetadataChoice> ChooseMetadataFile(fileio::FileIO& io,
                                          std::span<const std::string> metadata_files,
                                          const std::set<std::string>& marker_confirmed,
                                          const MetadataChoiceOptions& options = {});

//! Why `metadata` (read from `location`) is not a complete and consistent table version, or
//! Ok: the checks of the file comment except confirmation.
Status CheckMetadataConsistent(fileio::FileIO& io, const std::string& location,
                               const TableMetadata& metadata);

}  // namespace databox::iceberg
