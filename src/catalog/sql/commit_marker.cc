#include "catalog/sql/commit_marker.h"

#include <nlohmann/json.hpp>

#include "fileio/location.h"
#include "iceberg/table_metadata.h"

namespace databox::catalog::sql {
namespace {

constexpr int kMarkerFormat = 1;
constexpr std::string_view kMarkerSuffix = ".json";

}  // namespace

std::string CommitMarkerFolder(std::string_view warehouse, std::string_view catalog_name) {
  return fileio::JoinLocation(fileio::JoinLocation(warehouse, "_databox/commits"), catalog_name);
}

Status WriteCommitMarker(fileio::FileIO& io, std::string_view warehouse,
                         std::string_view catalog_name, std::span<const TablePointer> tables) {
  if (tables.empty()) return Ok();
  const int64_t now = iceberg::NowMs();
  nlohmann::json listed = nlohmann::json::array();
  for (const TablePointer& t : tables) {
    listed.push_back({{"table", t.table.ToString()}, {"metadata_location", t.metadata_location}});
  }
  const nlohmann::json doc = {{"format", kMarkerFormat},
                              {"catalog", catalog_name},
                              {"committed_at_ms", now},
                              {"tables", listed}};
  const std::string name =
      std::to_string(now) + "-" + iceberg::NewUuid() + std::string(kMarkerSuffix);
  return io.WriteNew(fileio::JoinLocation(CommitMarkerFolder(warehouse, catalog_name), name),
                     doc.dump());
}

Result<CommitMarkers> ReadCommitMarkers(fileio::FileIO& io, std::string_view warehouse,
                                        std::string_view catalog_name) {
  const std::string folder = CommitMarkerFolder(warehouse, catalog_name) + "/";
  DATABOX_ASSIGN_OR_RETURN(auto listed, io.List(folder));
  CommitMarkers markers;
  for (const fileio::FileInfo& file : listed) {
    if (!file.location.ends_with(kMarkerSuffix)) continue;
    ++markers.files;
    auto text = io.Read(file.location);
    if (!text) {
      markers.unreadable.push_back(file.location + ": " + text.error().message);
      continue;
    }
    const auto doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    const auto tables = doc.is_object() ? doc.find("tables") : doc.end();
    if (!doc.is_object() || doc.value("format", 0) != kMarkerFormat || tables == doc.end() ||
        !tables->is_array()) {
      markers.unreadable.push_back(file.location + ": not a format-1 commit marker");
      continue;
    }
    for (const auto& t : *tables) {
      if (t.is_object()) markers.committed.insert(t.value("metadata_location", ""));
    }
  }
  markers.committed.erase("");
  return markers;
}

}  // namespace databox::catalog::sql
