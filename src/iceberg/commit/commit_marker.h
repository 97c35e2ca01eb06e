// Commit markers: after a commit lands, one small JSON file goes into the warehouse naming each
// table's new metadata file, so that the warehouse alone can tell a committed metadata file from
// one a crashed commit wrote but never swapped in (`databox catalog recover --from-warehouse`,
// docs/catalog_recovery.md). The embedded SQL catalog writes them after its pointer swap
// (catalog/sql/sql_catalog.h); with a REST catalog the workspace writes them after the server
// answered a commit (platform/workspace.cc), since the server writes no such evidence.
//
//   <warehouse>/_databox/commits/<catalog name>/<UTC ms>-<uuid>.json
//   {"format": 1, "catalog": "...", "committed_at_ms": 1764..., "tables":
//     [{"table": "ns.t", "metadata_location": "…/metadata/00004-….metadata.json"}]}
//
// A marker is written after the commit, so it never names a file that was not committed. The
// converse has a window: a process killed between the commit and the marker leaves a committed
// file without a marker (until the table's next commit lists it in its metadata-log).
// Markers whose files later commits have superseded are pruned by `databox maintain --all
// --remove` (PruneCommitMarkers).
#pragma once

#include <chrono>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::iceberg {

//! <warehouse>/_databox/commits/<catalog name>: where `catalog_name`'s markers go.
std::string CommitMarkerFolder(std::string_view warehouse, std::string_view catalog_name);

//! Writes one marker naming `tables` (no file for an empty list).
Status WriteCommitMarker(fileio::FileIO& io, std::string_view warehouse,
                         std::string_view catalog_name, std::span<const TablePointer> tables);

//! What the markers of one catalog say.
struct CommitMarkers {
  std::set<std::string> committed;      //!< every metadata location a marker names
  size_t files = 0;                     //!< markers read
  std::vector<std::string> unreadable;  //!< markers that did not parse, with the reason
};

//! Reads every marker of `catalog_name` (none: an empty result).
Result<CommitMarkers> ReadCommitMarkers(fileio::FileIO& io, std::string_view warehouse,
                                        std::string_view catalog_name);

//! Says whether `table`'s file `location` is superseded: a later committed metadata file (the
//! table's current one) names it in its metadata-log, so recovery needs no marker for it.
using SupersededFn =
    std::function<Result<bool>(const TableIdentifier& table, const std::string& location)>;

struct MarkerPruning {
  size_t removed = 0;
  size_t kept = 0;
};

//! Deletes the markers written at least `min_age` ago whose every named file is superseded;
//! keeps the rest (and any marker that does not parse).
Result<MarkerPruning> PruneCommitMarkers(fileio::FileIO& io, std::string_view warehouse,
                                         std::string_view catalog_name,
                                         std::chrono::milliseconds min_age,
                                         const SupersededFn& superseded);

}  // namespace databox::iceberg
