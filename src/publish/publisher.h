// `databox publish`: one new version of the chosen raw tables and models at a target, validated,
// then made current (docs/publish.md). The steps, in order:
//   inspect the target (refuse one that is not ours) -> choose the relations -> plan each raw
//   table's files -> claim the target -> clear the new version's folder -> copy data files not
//   yet there -> rewrite delete files -> write each table's metadata -> export the models ->
//   write manifest.json -> read every relation back -> move the pointer -> remove old versions.
// Anything that fails before the pointer moves leaves the previous version current; the run
// history says what failed (run_record.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "load/duckdb_s3.h"
#include "load/workspace.h"
#include "publish/file_copy.h"
#include "publish/manifest.h"

namespace databox::publish {

//! Where to publish, as the composition root opened it.
struct Target {
  std::shared_ptr<fileio::FileIO> io;  //!< reaches every location under `root`
  std::string root;                    //!< s3://bucket/prefix or an absolute folder
  //! How DuckDB reads an s3:// target back (scoped to the root); none for a local folder.
  std::optional<load::DuckDbS3Access> duckdb_s3;
};

//! Which relations: raw namespaces (all their tables), raw tables, models.
struct Selection {
  std::vector<std::string> namespaces;  //!< with `tables`: both empty = every raw table
  std::vector<std::string> tables;
  std::optional<std::vector<std::string>> models;  //!< nullopt = every model
  //! --only: names of namespaces, raw tables or models; replaces the lists above when set.
  std::vector<std::string> only;
};

struct Request {
  Selection selection;
  bool dry_run = false;
  int keep = 3;
  std::string databox_version;
  int copy_threads = 4;
  ProgressFn progress;  //!< called as data files are copied (may be empty)
};

//! One relation's part of a publish.
struct RelationOutcome {
  std::string name;
  RelationKind kind = RelationKind::kIcebergTable;
  int64_t rows = 0;
  uint64_t files = 0;  //!< data and delete files it names
  uint64_t files_to_copy = 0;
  uint64_t bytes_to_copy = 0;
  std::optional<int64_t> snapshot_id;
};

struct Outcome {
  int64_t version = 0;  //!< the version written (or that a dry run would write)
  std::optional<int64_t> previous;
  bool current = false;  //!< the pointer names `version` now
  std::vector<RelationOutcome> relations;
  CopyStats copied;
  std::vector<std::string> problems;  //!< read-back differences (pointer not moved)
  int64_t versions_removed = 0;
  int64_t files_removed = 0;
  std::string error;  //!< the failure that stopped the publish; empty when none did
};

//! Publishes (or with dry_run, plans and lists). Returns an Outcome even when the publish
//! failed after it started (its `error` and `problems` say why; the pointer did not move); an
//! error only for a refusal before anything was written (bad target, unknown --only name).
Result<Outcome> Publish(load::Workspace& workspace, const Target& target, const Request& request);

}  // namespace databox::publish
