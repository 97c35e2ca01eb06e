#include "refresh/raw_columns.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "fileio/durable.h"
#include "iceberg/table.h"

namespace databox::refresh {
namespace {

const RawColumn* FindColumn(const std::vector<RawColumn>& columns, const std::string& name) {
  auto it = std::ranges::find(columns, name, &RawColumn::name);
  return it == columns.end() ? nullptr : &*it;
}

//! The change of a table present in both, or nullopt when its columns are the same.
std::optional<RawTableChange> ColumnChange(const std::string& table,
                                           const std::vector<RawColumn>& before,
                                           const std::vector<RawColumn>& now) {
  RawTableChange change;
  change.table = table;
  for (const RawColumn& column : now) {
    if (FindColumn(before, column.name) == nullptr) change.added.push_back(column);
  }
  for (const RawColumn& column : before) {
    const RawColumn* current = FindColumn(now, column.name);
    if (current == nullptr) {
      change.removed.push_back(column);
    } else if (current->type != column.type) {
      change.retyped.push_back({column.name, column.type, current->type});
    }
  }
  if (change.added.empty() && change.removed.empty() && change.retyped.empty()) {
    return std::nullopt;
  }
  return change;
}

}  // namespace

std::filesystem::path RawColumnsSnapshotPath(const registry::Registry& registry) {
  return registry.project.state_dir / "transform_raw_columns.json";
}

Result<RawColumns> ReadRawColumns(load::Workspace& workspace) {
  RawColumns out;
  for (const auto& source : workspace.registry().sources) {
    const iceberg::Namespace ns{source.Namespace()};
    DATABOX_ASSIGN_OR_RETURN(bool exists, workspace.catalog().NamespaceExists(ns));
    if (!exists) continue;
    DATABOX_ASSIGN_OR_RETURN(auto tables, workspace.catalog().ListTables(ns));
    for (const auto& id : tables) {
      const std::string name = source.Namespace() + "." + id.name;
      auto table = iceberg::Table::Load(workspace.catalog(), workspace.file_io(), id);
      if (!table) return std::unexpected(table.error().WithContext("raw table " + name));
      std::vector<RawColumn>& columns = out[name];
      for (const auto& field : table->schema().fields()) {
        columns.push_back({field.name, field.type.ToString()});
      }
    }
  }
  return out;
}

nlohmann::json RawColumnsSnapshotToJson(const RawColumnsSnapshot& snapshot) {
  nlohmann::json tables = nlohmann::json::object();
  for (const auto& [table, columns] : snapshot.tables) {
    nlohmann::json list = nlohmann::json::array();
    for (const RawColumn& column : columns) {
      list.push_back({{"name", column.name}, {"type", column.type}});
    }
    tables[table] = std::move(list);
  }
  return {{"saved_at", snapshot.saved_at}, {"tables", std::move(tables)}};
}

Result<RawColumnsSnapshot> RawColumnsSnapshotFromJson(const nlohmann::json& json) {
  try {
    RawColumnsSnapshot snapshot;
    snapshot.saved_at = json.at("saved_at").get<std::string>();
    for (const auto& [table, columns] : json.at("tables").items()) {
      std::vector<RawColumn>& list = snapshot.tables[table];
      for (const auto& column : columns) {
        list.push_back(
            {column.at("name").get<std::string>(), column.at("type").get<std::string>()});
      }
    }
    return snapshot;
  } catch (const nlohmann::json::exception& e) {
    return MakeError(ErrorKind::kData, std::string("raw columns snapshot: ") + e.what());
  }
}

Status SaveRawColumnsSnapshot(const std::filesystem::path& path,
                              const RawColumnsSnapshot& snapshot) {
  return fileio::WriteFileDurably(path, RawColumnsSnapshotToJson(snapshot).dump(1) + "\n");
}

Result<std::optional<RawColumnsSnapshot>> LoadRawColumnsSnapshot(
    const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::optional<RawColumnsSnapshot>();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto json = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!in || json.is_discarded()) {
    return MakeError(ErrorKind::kData, "cannot read " + path.string() + ": not valid JSON");
  }
  auto snapshot = RawColumnsSnapshotFromJson(json);
  if (!snapshot) return std::unexpected(snapshot.error().WithContext(path.string()));
  return std::optional<RawColumnsSnapshot>(std::move(*snapshot));
}

std::vector<RawTableChange> DiffRawColumns(const RawColumns& before, const RawColumns& now) {
  std::vector<RawTableChange> changes;
  for (const auto& [table, columns] : now) {
    auto old = before.find(table);
    if (old != before.end()) {
      if (auto change = ColumnChange(table, old->second, columns)) {
        changes.push_back(std::move(*change));
      }
      continue;
    }
    RawTableChange& added = changes.emplace_back();
    added.table = table;
    added.kind = RawTableChange::Kind::kNewTable;
    added.added = columns;
  }
  for (const auto& [table, columns] : before) {
    if (now.contains(table)) continue;
    RawTableChange& gone = changes.emplace_back();
    gone.table = table;
    gone.kind = RawTableChange::Kind::kGone;
    gone.removed = columns;
  }
  std::ranges::sort(changes, {}, &RawTableChange::table);
  return changes;
}

}  // namespace databox::refresh
