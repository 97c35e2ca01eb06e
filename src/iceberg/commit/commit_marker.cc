#include "iceberg/commit/commit_marker.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>

#include "fileio/location.h"
#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {
namespace {

constexpr int kMarkerFormat = 1;
constexpr std::string_view kMarkerSuffix = ".json";

//! The tables and locations one marker names; kData when it is not a marker.
Result<std::vector<TablePointer>> ParseMarker(const std::string& text) {
  const auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  const auto tables = doc.is_object() ? doc.find("tables") : doc.end();
  if (!doc.is_object() || doc.value("format", 0) != kMarkerFormat || tables == doc.end() ||
      !tables->is_array()) {
    return MakeError(ErrorKind::kData, "not a format-1 commit marker");
  }
  std::vector<TablePointer> out;
  for (const auto& t : *tables) {
    if (!t.is_object()) return MakeError(ErrorKind::kData, "a table entry is not an object");
    DATABOX_ASSIGN_OR_RETURN(auto table, ParseTableIdentifier(t.value("table", "")));
    out.push_back({std::move(table), t.value("metadata_location", "")});
  }
  return out;
}

//! The UTC milliseconds a marker's name starts with; nullopt for another name.
std::optional<int64_t> MarkerTime(std::string_view location) {
  const auto slash = location.rfind('/');
  const std::string_view name = location.substr(slash == std::string_view::npos ? 0 : slash + 1);
  int64_t ms = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), ms);
  if (ec != std::errc() || end == name.data() || *end != '-') return std::nullopt;
  return ms;
}

}  // namespace

std::string CommitMarkerFolder(std::string_view warehouse, std::string_view catalog_name) {
  return fileio::JoinLocation(fileio::JoinLocation(warehouse, "_databox/commits"), catalog_name);
}

Status WriteCommitMarker(fileio::FileIO& io, std::string_view warehouse,
                         std::string_view catalog_name, std::span<const TablePointer> tables) {
  if (tables.empty()) return Ok();
  const int64_t now = NowMs();
  nlohmann::json listed = nlohmann::json::array();
  for (const TablePointer& t : tables) {
    listed.push_back({{"table", t.table.ToString()}, {"metadata_location", t.metadata_location}});
  }
  const nlohmann::json doc = {{"format", kMarkerFormat},
                              {"catalog", catalog_name},
                              {"committed_at_ms", now},
                              {"tables", listed}};
  const std::string name = std::to_string(now) + "-" + NewUuid() + std::string(kMarkerSuffix);
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
    auto named = ParseMarker(*text);
    if (!named) {
      markers.unreadable.push_back(file.location + ": " + named.error().message);
      continue;
    }
    for (const TablePointer& t : *named) markers.committed.insert(t.metadata_location);
  }
  markers.committed.erase("");
  return markers;
}

Result<MarkerPruning> PruneCommitMarkers(fileio::FileIO& io, std::string_view warehouse,
                                         std::string_view catalog_name,
                                         std::chrono::milliseconds min_age,
                                         const SupersededFn& superseded) {
  DATABOX_ASSIGN_OR_RETURN(auto listed, io.List(CommitMarkerFolder(warehouse, catalog_name) + "/"));
  const int64_t cutoff = NowMs() - min_age.count();
  MarkerPruning pruning;
  for (const fileio::FileInfo& file : listed) {
    if (!file.location.ends_with(kMarkerSuffix)) continue;
    const auto written = MarkerTime(file.location);
    auto text = io.Read(file.location);
    auto named = text ? ParseMarker(*text) : std::unexpected(text.error());
    bool prune = written && *written <= cutoff && named;
    for (size_t i = 0; prune && i < named->size(); ++i) {
      DATABOX_ASSIGN_OR_RETURN(prune, superseded((*named)[i].table, (*named)[i].metadata_location));
    }
    if (!prune) {
      ++pruning.kept;
      continue;
    }
    DATABOX_RETURN_IF_ERROR(io.Delete(file.location));
    ++pruning.removed;
  }
  return pruning;
}

}  // namespace databox::iceberg
