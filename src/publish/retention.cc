#include "publish/retention.h"

#include <set>
#include <string>

#include "publish/manifest.h"

namespace databox::publish {
namespace {

//! The objects under `folder`; none when the folder does not exist.
Result<std::vector<fileio::FileInfo>> ListOrEmpty(fileio::FileIO& io, const std::string& folder) {
  auto objects = io.List(folder + "/");
  if (!objects && objects.error().kind == ErrorKind::kNotFound) {
    return std::vector<fileio::FileInfo>{};
  }
  return objects;
}

Status DeleteAll(fileio::FileIO& io, const std::string& folder, int64_t* count) {
  DATABOX_ASSIGN_OR_RETURN(std::vector<fileio::FileInfo> objects, ListOrEmpty(io, folder));
  for (const fileio::FileInfo& object : objects) {
    Status deleted = io.Delete(object.location);
    if (!deleted && deleted.error().kind != ErrorKind::kNotFound) return deleted;
    if (count != nullptr) ++*count;
  }
  return io.RemoveEmptyFolders(folder);
}

}  // namespace

Status ClearVersionFolder(fileio::FileIO& io, const Layout& layout, int64_t version) {
  return DeleteAll(io, layout.VersionFolder(version), nullptr);
}

Result<RetentionStats> ApplyRetention(fileio::FileIO& io, const Layout& layout, int64_t current,
                                      int keep) {
  RetentionStats stats;
  const int64_t oldest_kept = std::max<int64_t>(1, current - keep + 1);
  DATABOX_ASSIGN_OR_RETURN(std::vector<fileio::FileInfo> versioned,
                           ListOrEmpty(io, layout.VersionsFolder()));
  std::set<int64_t> old;
  for (const fileio::FileInfo& object : versioned) {
    if (auto version = layout.VersionOf(object.location); version && *version < oldest_kept) {
      old.insert(*version);
    }
  }
  for (int64_t version : old) {
    DATABOX_RETURN_IF_ERROR(DeleteAll(io, layout.VersionFolder(version), nullptr));
    ++stats.versions_removed;
  }
  std::set<std::string> named;
  for (int64_t version = oldest_kept; version <= current; ++version) {
    auto text = io.Read(layout.Manifest(version));
    if (!text) {
      if (text.error().kind == ErrorKind::kNotFound) continue;  // removed by hand
      return std::unexpected(text.error());
    }
    DATABOX_ASSIGN_OR_RETURN(Manifest manifest,
                             Manifest::FromJson(*text, layout.Manifest(version)));
    for (const Relation& relation : manifest.relations) {
      named.insert(relation.files.begin(), relation.files.end());
    }
  }
  DATABOX_ASSIGN_OR_RETURN(std::vector<fileio::FileInfo> data,
                           ListOrEmpty(io, layout.DataFolder()));
  for (const fileio::FileInfo& object : data) {
    const auto relative = layout.Relative(object.location);
    if (relative && named.contains(*relative)) continue;
    Status deleted = io.Delete(object.location);
    if (!deleted && deleted.error().kind != ErrorKind::kNotFound)
      return std::unexpected(deleted.error());
    ++stats.files_removed;
  }
  DATABOX_RETURN_IF_ERROR(io.RemoveEmptyFolders(layout.DataFolder()));
  return stats;
}

}  // namespace databox::publish
