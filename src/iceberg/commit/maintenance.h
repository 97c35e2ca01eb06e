// Table maintenance: expiring old snapshots and finding (optionally removing) orphan files.
//
// Orphan files are files under a table's data/ and metadata/ folders that nothing reachable
// from the current metadata references: not the current metadata file, not a metadata file in
// its metadata-log, not a statistics file, not the manifest list of a retained snapshot, not a
// manifest such a list names, not a live data file of such a manifest. They come from commits
// that were rejected after their files were written, from loads killed mid-way, from the
// metadata-log dropping old entries (write.metadata.previous-versions-max) and from expired
// snapshots, and temporary files of writes a killed process never published (LocalFileIO's
// ".databox-tmp-<pid>-<name>-XXXXXX" or the older ".<name>.databox-tmp-XXXXXX", which FileIO::List
// hides; the next write into the folder also removes those of dead processes). A file that is
// unreferenced now may still belong to a commit in flight, so only files older than a minimum age
// may be removed; a dry run lists every unreferenced file with its age. The folders are listed
// BEFORE the metadata is loaded: a file committed in between is then seen as referenced, and one
// written after the listing is not a candidate at all.
//
// Expiring snapshots removes snapshots from the metadata in one catalog commit
// ("remove-snapshots"); it deletes no file. What only the expired snapshots referenced becomes
// orphaned and is found by the listing above.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/commit/commit.h"

namespace databox::iceberg {

//! Age an unreferenced file must reach before it may be removed (Iceberg Java's default for
//! remove-orphan-files): a younger one may belong to a commit that has not landed yet.
inline constexpr std::chrono::milliseconds kDefaultOrphanMinAge = std::chrono::hours(3 * 24);

//! One unreferenced file.
struct OrphanFile {
  std::string location;           //!< as the storage listed it
  uint64_t size = 0;              //!< bytes
  std::optional<int64_t> age_ms;  //!< now - last modification; nullopt: the store did not say
  bool old_enough = false;        //!< age_ms >= the minimum age (false when the age is unknown)
  bool removed = false;           //!< deleted by this run
};

struct OrphanOptions {
  std::chrono::milliseconds min_age = kDefaultOrphanMinAge;
  bool remove = false;  //!< delete the orphans that are old enough (otherwise only list)
  int64_t now_ms = 0;   //!< "now" for ages; 0 = the clock
  //! Snapshots to treat as already expired (a dry run of an expiry: what it would orphan).
  //! Not allowed together with `remove`.
  std::vector<int64_t> without_snapshots;
};

struct OrphanReport {
  std::string metadata_location;    //!< the metadata the references were taken from
  size_t listed_files = 0;          //!< files found under data/ and metadata/
  size_t referenced_files = 0;      //!< distinct files reachable from the metadata
  std::vector<OrphanFile> orphans;  //!< sorted by location
  //! Referenced files under data/ or metadata/ that the listing did not find. Non-empty means
  //! the table is damaged or the listing and the metadata spell locations differently; removal
  //! is refused then.
  std::vector<std::string> missing;
  //! Metadata files in the table's metadata/ folder that belong to another table (another
  //! table-uuid): a second catalog's table at the same location, or a first create a killed load
  //! never registered. They and every file they reference are kept out of `orphans`.
  std::vector<std::string> foreign_metadata;
  size_t foreign_files = 0;  //!< files kept out of `orphans` because another table references them
  //! With a catalog that keeps table history itself (Catalog::KeepsHistoryOutsideMetadata): the
  //! earlier metadata versions of this table found in its folder, and the files kept out of
  //! `orphans` because one of them references them (the catalog can still serve those versions).
  size_t history_versions = 0;
  size_t history_files = 0;
};

//! The form in which locations are compared: "file:///a" and "file:/a" become "/a",
//! "s3a://" becomes "s3://"; anything else is returned unchanged.
std::string CanonicalLocation(std::string_view location);

//! Every file reachable from `loaded` (see the file comment), in canonical form.
Result<std::set<std::string>> ReferencedFiles(fileio::FileIO& io, const LoadedTable& loaded);

//! Lists the table's data/ and metadata/ folders, loads the table, and reports the files no
//! metadata references. With options.remove, deletes those that are old enough (kData, and
//! nothing deleted, when `missing` is not empty). Unless the catalog says the folders are its own
//! (Catalog::TableFoldersAreItsOwn), a file another table's metadata in these folders references
//! is never an orphan (see OrphanReport::foreign_metadata). When the catalog keeps the table's
//! history outside its metadata (Catalog::KeepsHistoryOutsideMetadata), neither is a file an
//! earlier metadata version of the table in its folder references.
Result<OrphanReport> FindOrphanFiles(Catalog& catalog, fileio::FileIO& io,
                                     const TableIdentifier& table,
                                     const OrphanOptions& options = {});

struct ExpireOptions {
  //! Newest snapshots of main's history to keep (at least 1: the current snapshot).
  int retain_last = 1;
  //! When set, snapshots whose timestamp is at or after this (ms since the epoch) are kept too.
  std::optional<int64_t> keep_newer_than_ms;
};

//! Snapshots of `metadata` that `options` lets expire, ascending. Never the current snapshot,
//! a branch or tag head, the retain_last newest of main's history, a branch's
//! min-snapshots-to-keep newest, or (with keep_newer_than_ms) a newer snapshot.
std::vector<int64_t> SnapshotsToExpire(const TableMetadata& metadata, const ExpireOptions& options);

//! Removes the snapshots SnapshotsToExpire picks, in one commit that asserts every ref
//! (a concurrent commit makes it re-plan). Nothing to expire = nothing committed.
class ExpireSnapshots final : public TableChange {
 public:
  ExpireSnapshots(TableIdentifier table, ExpireOptions options)
      : table_(std::move(table)), options_(options) {}

  const TableIdentifier& identifier() const override { return table_; }
  Result<PlannedChange> Plan(const LoadedTable* base) override;
  std::vector<std::string> DurableFiles() const override { return {}; }
  //! The snapshots the last plan removed.
  const std::vector<int64_t>& expired() const { return expired_; }

 private:
  TableIdentifier table_;
  ExpireOptions options_;
  std::vector<int64_t> expired_;
};

}  // namespace databox::iceberg
