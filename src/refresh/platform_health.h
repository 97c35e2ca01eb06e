// The platform views of the raw views file (schema `databox`), which the hand-written SQLMesh
// model analytics.platform_health reads as <alias>.databox.platform_loads. Databox builds them
// with the raw views (analytics.h) from the registry, so no file is generated into the user's
// transform project:
//
//   databox.sources         (source VARCHAR, routine BOOLEAN): one row per registry source, the
//                           source set the file was built for (RawViewsAreCurrent compares it).
//   databox.platform_loads  (source, load_id, status, rows_loaded, inserted_at): one row per
//                           load status row of every routine source (its
//                           raw_<source>._dlt_load_status), and one row with NULLs for a routine
//                           source without any, so a source that never loaded is visible rather
//                           than absent. No routine source: no rows, same columns.
//
// The views are self-contained (they do not name other views of the file), so they read the
// same under whatever catalog name the file is attached.
#pragma once

#include <string>
#include <vector>

#include "registry/model.h"

namespace databox::refresh {

//! Schema of the platform views in the raw views file.
inline constexpr const char* kPlatformSchema = "databox";
//! Name of the view listing the registry's sources.
inline constexpr const char* kSourcesView = "sources";
//! Name of the view of every routine source's loads.
inline constexpr const char* kPlatformLoadsView = "platform_loads";

//! The SELECT behind databox.sources for the registry.
std::string SourcesViewSql(const registry::Registry& registry);

//! A routine source and the SELECT of its raw_<source>._dlt_load_status view (the table's
//! current files, or the typed empty placeholder when it does not exist yet).
struct RoutineLoadStatus {
  std::string source;
  std::string load_status_sql;
};

//! The SELECT behind databox.platform_loads over the routine sources' load status SELECTs.
std::string PlatformLoadsViewSql(const std::vector<RoutineLoadStatus>& routine);

}  // namespace databox::refresh
