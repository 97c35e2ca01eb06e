// The raw tables' columns as the last successful transform saw them, and what changed since.
//
// After every successful transform (`databox transform`, and the transform of a refresh) the
// columns of every raw table (each registry source's namespace, every table the catalog lists
// there: name and Iceberg type, in schema order, top level only) are saved in
// <state_dir>/transform_raw_columns.json, written atomically:
//   {"saved_at": "<ISO 8601 UTC>",
//    "tables": {"raw_noaa.daily_weather": [{"name": "date", "type": "string"}, ...], ...}}
// `databox transform --plan` compares the catalog's current columns with that file: per table
// the columns that appeared, vanished or changed type, and the tables that appeared or vanished.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::refresh {

struct RawColumn {
  std::string name;
  std::string type;  //!< Iceberg type ("long", "string", "decimal(9, 2)", "struct", "list")

  friend bool operator==(const RawColumn& a, const RawColumn& b) = default;
};

//! "<namespace>.<table>" -> its columns in schema order.
using RawColumns = std::map<std::string, std::vector<RawColumn>>;

//! What <state_dir>/transform_raw_columns.json holds.
struct RawColumnsSnapshot {
  std::string saved_at;  //!< ISO 8601 UTC
  RawColumns tables;
};

struct RetypedColumn {
  std::string name;
  std::string before;
  std::string now;
};

//! How one raw table differs from the snapshot.
struct RawTableChange {
  enum class Kind {
    kColumns,   //!< in both: see added, removed, retyped
    kNewTable,  //!< not in the snapshot: `added` lists its columns
    kGone,      //!< in the snapshot only: `removed` lists its columns
  };
  std::string table;
  Kind kind = Kind::kColumns;
  std::vector<RawColumn> added;
  std::vector<RawColumn> removed;
  std::vector<RetypedColumn> retyped;
};

//! <state_dir>/transform_raw_columns.json.
std::filesystem::path RawColumnsSnapshotPath(const registry::Registry& registry);

//! The current columns of every raw table, from the catalog (no data file is read).
Result<RawColumns> ReadRawColumns(load::Workspace& workspace);

nlohmann::json RawColumnsSnapshotToJson(const RawColumnsSnapshot& snapshot);
//! A kData error naming what is missing or malformed.
Result<RawColumnsSnapshot> RawColumnsSnapshotFromJson(const nlohmann::json& json);

//! Writes the file atomically (a temporary beside it, renamed over it).
Status SaveRawColumnsSnapshot(const std::filesystem::path& path,
                              const RawColumnsSnapshot& snapshot);
//! The saved snapshot; nullopt when the file does not exist (no transform succeeded yet). A
//! kData error naming the file when it cannot be read or parsed.
Result<std::optional<RawColumnsSnapshot>> LoadRawColumnsSnapshot(const std::filesystem::path& path);

//! The tables whose columns differ between `before` and `now`, by table name; within a table
//! added columns in `now`'s order, removed and retyped ones in `before`'s.
std::vector<RawTableChange> DiffRawColumns(const RawColumns& before, const RawColumns& now);

}  // namespace databox::refresh
